/**
 * The parts of Circle's FiatToken (USDC) ABI the chain service uses: sandbox set-up and minting,
 * balances, the EIP-712 domain, the EIP-3009 authorisation state x402 `exact` payments settle by
 * (used by a seller's transferWithAuthorization, or voided by the signer's cancelAuthorization),
 * and the EIP-2612 permit that sets an agent's Permit2 allowance for `upto` payments.
 */
import { parseAbi } from 'viem';

export const fiatTokenAbi = parseAbi([
  'function initialize(string tokenName, string tokenSymbol, string tokenCurrency, uint8 tokenDecimals, address newMasterMinter, address newPauser, address newBlacklister, address newOwner)',
  'function initializeV2(string newName)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
  'function configureMinter(address minter, uint256 minterAllowedAmount) returns (bool)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function isMinter(address account) view returns (bool)',
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address account) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  'function nonces(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, bytes signature)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
