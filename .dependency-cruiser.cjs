// The house rules of imports, checked by `npm test` (the `dependencies` suite):
//   npx depcruise --config .dependency-cruiser.cjs --output-type err <workspaces>
// Each workspace is a room with a front door: other workspaces come in through its package
// entries, never to a file inside. Below: core imports nothing of ours; workflows never import
// the server; web takes only types from the server; nothing imports scripts/; no import cycles.
//
// Nothing is exempt: no known violation stands (the baseline the rules came in with is gone).
const WORKSPACES = '(core|prisma|workflows|server|web|sdk|docs-content|e2e|bench|n8n-nodes)';

/**
 * The files a workspace offers others: its package.json entries. A named sub-entry is here
 * because a consumer needs it (the database's test helpers, the worker's bundle path...).
 */
const ENTRIES = [
  '^core/src/index\\.ts$',
  '^prisma/src/index\\.ts$',
  '^prisma/src/testing\\.ts$',
  '^workflows/src/index\\.ts$',
  '^server/src/index\\.ts$',
  // The product under test (dev server, app, workers, paying agents) for the sdk and n8n suites.
  '^server/src/testing\\.ts$',
  '^docs-content/src/index\\.ts$',
  // The web bundle's: the parsers and the content as text; the index reads files (Node only).
  '^docs-content/src/browser\\.ts$',
  // Sample type-checking for the web's snippet test: it loads the TypeScript compiler.
  '^docs-content/src/typescript-samples\\.ts$',
  // The whitepaper as markdown and PDF, which the web build publishes.
  '^docs-content/scripts/build-whitepaper-pdf\\.mjs$',
  '^sdk/src/index\\.ts$',
  // The landing page's words (FAQ, protocols), which the end-to-end tests check the page against.
  '^web/src/index\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: two files that need each other belong together, or one of them holds a piece that belongs below both.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-deep-imports',
      comment: "Another workspace's internals: import its package entry (its src/index.ts, or a sub-entry its package.json names).",
      severity: 'error',
      from: { path: `^${WORKSPACES}/` },
      to: { path: `^${WORKSPACES}/`, pathNot: ['^$1/', ...ENTRIES] },
    },
    {
      name: 'core-imports-nothing-ours',
      comment: 'core is the floor: contracts and pure logic that every other workspace builds on.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: `^(${WORKSPACES.slice(1, -1).replace('core|', '')}|scripts)/` },
    },
    {
      name: 'workflows-not-server',
      comment: 'The workflows call steps through the contract in core; the server implements them and hands them in.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: '^(server|web|bench|e2e)/' },
    },
    {
      name: 'web-takes-only-types-from-server',
      comment: "The browser bundle carries no server code: only types (the tRPC router's) cross.",
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'paid-calls-front-door',
      comment:
        "Paid HTTP calls are one room (server/src/services/paid-calls/, its README has the map): the rest of the product calls the operations at its top level, never its front/, wire protocol or scheme folders. Tests may reach in.",
      severity: 'error',
      from: { path: '^server/', pathNot: ['^server/src/services/paid-calls/', '\\.test\\.ts$'] },
      to: { path: '^server/src/services/paid-calls/[^/]+/' },
    },
    {
      name: 'paid-calls-not-rails',
      comment: 'The x402 rail is built in the paid-calls room and handed to createRails: the room never imports rails/ (what both need, the Rail contract and the operation record, is in rail-operations/).',
      severity: 'error',
      from: { path: '^server/src/services/paid-calls/' },
      to: { path: '^server/src/services/rails/' },
    },
    {
      name: 'paid-calls-schemes-below-the-front',
      comment: "Inside the paid-calls room the schemes and the wire protocols are below the front: they never import front/ or the room's operations. Their tests may.",
      severity: 'error',
      from: { path: '^server/src/services/paid-calls/(schemes|x402|mpp)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/src/services/paid-calls/(front/|[^/]+\\.ts$)' },
    },
    {
      name: 'paid-calls-wire-below-the-schemes',
      comment: 'The wire protocols (x402/, mpp/) read and write messages; they know no scheme implementation, so a protocol is a sibling folder.',
      severity: 'error',
      from: { path: '^server/src/services/paid-calls/(x402|mpp)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/src/services/paid-calls/schemes/' },
    },
    {
      name: 'paid-calls-one-scheme-per-folder',
      comment: "A scheme folder implements the contract on its own: it never imports another scheme's folder (what two share lives in schemes/ beside them).",
      severity: 'error',
      from: { path: '^server/src/services/paid-calls/schemes/([^/]+)/' },
      to: { path: '^server/src/services/paid-calls/schemes/[^/]+/', pathNot: '^server/src/services/paid-calls/schemes/$1/' },
    },
    {
      name: 'no-workspace-imports-scripts',
      comment: "scripts/ runs the repository (install, start, test): the product's code does not reach into it (test support may use its port finder and tool installers).",
      severity: 'error',
      from: { path: `^${WORKSPACES}/src/` },
      to: { path: '^scripts/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['node_modules', '/dist/', '/generated/', '\\.test-output/', 'test-results/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@purser/source', 'import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.d.ts'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
