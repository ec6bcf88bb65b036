/**
 * @purser/server/testing: what other workspaces' suites (sdk, n8n-nodes) use to test against
 * the real product: a Temporal dev server with the app and workers on a fresh database,
 * agents that pay each other, the docs' recipes, the OpenAPI document as served, and the
 * checks a suite ends with. The support itself lives in test/support beside the server's own
 * suites; this file names the part other workspaces may use.
 */
export { startTemporalTestEnv, type TemporalTestEnv, type TemporalTestEnvOptions, type WorkerProcess } from '../test/support/temporal-env';
export { agentLedgerUsdc, atomicDollars, payerAndPayee, type PayingAgent } from '../test/support/paying-agents';
export { docRecipe, EXAMPLE_DID, EXAMPLE_URL, fillIn } from '../test/support/doc-recipes';
// A seller that verifies agents' request signatures with Cloudflare's packages (docs/identity.md).
export { startVerifyingSeller, VERIFYING_SELLER_PRICE, type SeenRequest, type VerifiedIdentity, type VerifyingSeller } from '../test/support/verifying-seller';
// A seller paid through MPP with the official mppx server (and its x402 offer), honest or lying one way.
export { MPP_SELLER_PATH, MPP_SELLER_PRICE, startMppSeller, type MppSeller, type MppSellerOptions, type MppSettlement, type SeenMppRequest } from '../test/support/mpp-seller';
export { documentedOperations, operationAt, servedOpenApiDocument, type DocumentedOperation } from '../test/support/openapi-document';
export { createInvitation } from './services/invitations/create-invitation';
export { verifyAuditExport } from './services/audit/verify-audit-export';
export { verifyLedger } from './services/ledger/verify-ledger';
// The sandbox paid API's PNG, as its seller makes it, to compare with what a buyer received.
export { sandboxChartPng } from './http/sandbox-chart';
