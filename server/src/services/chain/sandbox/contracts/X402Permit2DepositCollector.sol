// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The part of Permit2's SignatureTransfer this collector calls.
interface ISignatureTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

interface IERC20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
}

/// @title x402 batch-settlement Permit2 deposit collector for the Purser sandbox chain
/// @notice Installed with anvil_setCode at PERMIT2_DEPOSIT_COLLECTOR_ADDRESS, the spender of the
/// Permit2 PermitWitnessTransferFrom that x402's EVM package's batch-settlement client signs for a deposit
/// when a seller asks for `assetTransferMethod: "permit2"`. Only the batch-settlement contract may
/// call it. The witness is DepositWitness(channelId), with the channel id the batch-settlement
/// contract computed from the channel's config, so Permit2 refuses a signature made for another
/// channel. Permit2 sends the tokens straight to the batch-settlement contract.
contract Permit2DepositCollector {
    ISignatureTransfer private constant PERMIT2 = ISignatureTransfer(0x000000000022D473030F116dDEE9F6B43aC78BA3);
    address private constant BATCH_SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    bytes32 private constant DEPOSIT_WITNESS_TYPEHASH = keccak256("DepositWitness(bytes32 channelId)");
    /// @notice What Permit2 appends to its PermitWitnessTransferFrom type: the witness field, then the
    /// referenced struct types in alphabetical order.
    string private constant WITNESS_TYPE_STRING =
        "DepositWitness witness)DepositWitness(bytes32 channelId)TokenPermissions(address token,uint256 amount)";

    error UnauthorizedCaller();

    /// @param collectorData abi.encode(uint256 nonce, uint256 deadline, bytes permit2Signature,
    /// bytes eip2612PermitData), the last empty or abi.encode(value, deadline, v, r, s) of the
    /// payer's EIP-2612 permit for Permit2 (gas-sponsored approval).
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
    {
        if (msg.sender != BATCH_SETTLEMENT) revert UnauthorizedCaller();
        (uint256 nonce, uint256 deadline, bytes memory signature, bytes memory eip2612PermitData) =
            abi.decode(collectorData, (uint256, uint256, bytes, bytes));
        if (eip2612PermitData.length != 0) _approvePermit2(payer, token, eip2612PermitData);
        PERMIT2.permitWitnessTransferFrom(
            ISignatureTransfer.PermitTransferFrom({
                permitted: ISignatureTransfer.TokenPermissions({token: token, amount: amount}),
                nonce: nonce,
                deadline: deadline
            }),
            ISignatureTransfer.SignatureTransferDetails({to: BATCH_SETTLEMENT, requestedAmount: amount}),
            payer,
            keccak256(abi.encode(DEPOSIT_WITNESS_TYPEHASH, channelId)),
            WITNESS_TYPE_STRING,
            signature
        );
    }

    /// @notice Submits the payer's EIP-2612 permit for Permit2. Its signature is public once sent, so
    /// someone may have submitted it already: a failed permit does not stop the deposit, which then
    /// stands or falls on the allowance Permit2 has.
    function _approvePermit2(address payer, address token, bytes memory eip2612PermitData) private {
        (uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) =
            abi.decode(eip2612PermitData, (uint256, uint256, uint8, bytes32, bytes32));
        try IERC20Permit(token).permit(payer, address(PERMIT2), value, deadline, v, r, s) {} catch {}
    }
}
