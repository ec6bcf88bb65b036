// @purser/server's front door. The browser takes only the tRPC router's type from here.
export type { AppRouter } from './trpc/router';
