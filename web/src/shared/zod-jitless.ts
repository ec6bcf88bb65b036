// Imported first by main.tsx, before any zod schema exists. The Content-Security-Policy allows
// no eval, and zod otherwise probes `new Function('')` to compile its parsers, a probe the
// browser blocks and reports as a violation. Interpreted parsing is fast enough for forms.
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
