// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice FiatTokenV2_2's ERC-3009 receiveWithAuthorization, the variant that takes the signature
/// as bytes (so an ERC-1271 payer can deposit too).
interface IERC3009 {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
}

interface IERC20Transfer {
    function transfer(address to, uint256 value) external returns (bool);
}

/// @title x402 batch-settlement ERC-3009 deposit collector for the Purser sandbox chain
/// @notice Installed with anvil_setCode at ERC3009_DEPOSIT_COLLECTOR_ADDRESS, the `to` of the
/// ReceiveWithAuthorization that x402's EVM package's batch-settlement client signs for a deposit. Only the
/// batch-settlement contract may call it: it pulls the deposit with the payer's authorisation and
/// forwards it to that contract, which credits the channel.
/// The authorisation's nonce is keccak256(abi.encode(channelId, salt)), as the client derives it.
/// The channel id passed in is the one the batch-settlement contract computed from the channel's
/// config, so an authorisation signed for one channel fails for any other.
contract ERC3009DepositCollector {
    address private constant BATCH_SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error TokenTransferFailed(address token);
    error UnauthorizedCaller();

    /// @param collectorData abi.encode(uint256 validAfter, uint256 validBefore, uint256 salt, bytes signature)
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
    {
        if (msg.sender != BATCH_SETTLEMENT) revert UnauthorizedCaller();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        bytes32 nonce = keccak256(abi.encode(channelId, salt));
        IERC3009(token).receiveWithAuthorization(payer, address(this), amount, validAfter, validBefore, nonce, signature);
        (bool success, bytes memory result) = token.call(abi.encodeCall(IERC20Transfer.transfer, (BATCH_SETTLEMENT, amount)));
        if (!success || (result.length != 0 && !abi.decode(result, (bool)))) revert TokenTransferFailed(token);
    }
}
