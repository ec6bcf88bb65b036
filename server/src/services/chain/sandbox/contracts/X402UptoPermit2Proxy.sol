// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The part of Permit2's SignatureTransfer this proxy calls. Struct names follow Permit2's
/// interface, so the compiled ABI names the same types as x402's x402UptoPermit2ProxyABI.
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

/// @title x402 "upto" Permit2 proxy for the Purser sandbox chain
/// @notice Written for the sandbox from the ABI and the witness typed data that x402's EVM package
/// exports, and installed with anvil_setCode at x402UptoPermit2ProxyAddress, the spender x402's upto
/// client signs for and the contract its facilitator settles through. A payer signs, once, a
/// Permit2 PermitWitnessTransferFrom for at most `permit.permitted.amount` with this contract as
/// spender and a witness naming the payee (`to`), the only facilitator allowed to settle, and when
/// settling may start; that facilitator later settles any `amount` up to the maximum, exactly once
/// (Permit2's nonce).
/// @dev anvil_setCode runs no constructor: every address here is a constant, and the reentrancy
/// flag lives in transient storage, which starts cleared in every transaction.
contract x402UptoPermit2Proxy {
    struct Witness {
        address to;
        address facilitator;
        uint256 validAfter;
    }

    struct EIP2612Permit {
        uint256 value;
        uint256 deadline;
        bytes32 r;
        bytes32 s;
        uint8 v;
    }

    ISignatureTransfer public constant PERMIT2 = ISignatureTransfer(0x000000000022D473030F116dDEE9F6B43aC78BA3);

    /// @notice What Permit2 appends to "PermitWitnessTransferFrom(TokenPermissions permitted,address
    /// spender,uint256 nonce,uint256 deadline," to build the signed type: the witness field, then the
    /// referenced struct types in alphabetical order, as EIP-712 encodes them.
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)";

    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,address facilitator,uint256 validAfter)");

    bool private transient entered;

    event Settled();
    event SettledWithPermit();

    error AmountExceedsPermitted();
    error InvalidDestination();
    error InvalidOwner();
    /// @notice No Permit2 at its canonical address on this chain: nothing could be settled.
    error InvalidPermit2Address();
    error PaymentTooEarly();
    error Permit2612AmountMismatch();
    error ReentrancyGuardReentrantCall();
    error UnauthorizedFacilitator();

    modifier nonReentrant() {
        if (entered) revert ReentrancyGuardReentrantCall();
        entered = true;
        _;
        entered = false;
    }

    /// @notice Moves `amount` of the permitted token from `owner` to `witness.to`, for a payer who
    /// approved Permit2 already.
    function settle(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _settle(permit, amount, owner, witness, signature);
        emit Settled();
    }

    /// @notice settle, after approving Permit2 for the payer with the token's EIP-2612 permit, so a
    /// payer without ETH for an approval transaction can still pay. The permit may already have been
    /// submitted by someone else (its signature is public once sent): a failed permit does not stop
    /// the settlement, which then stands or falls on the allowance Permit2 has.
    function settleWithPermit(
        EIP2612Permit calldata permit2612,
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        // The approval must be for what the payer signed Permit2 for, no more and no less.
        if (permit2612.value != permit.permitted.amount) revert Permit2612AmountMismatch();
        try IERC20Permit(permit.permitted.token).permit(
            owner, address(PERMIT2), permit2612.value, permit2612.deadline, permit2612.v, permit2612.r, permit2612.s
        ) {} catch {}
        _settle(permit, amount, owner, witness, signature);
        emit SettledWithPermit();
    }

    function _settle(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) private {
        // The payer named one facilitator in what they signed; only it decides the final amount.
        if (msg.sender != witness.facilitator) revert UnauthorizedFacilitator();
        if (block.timestamp < witness.validAfter) revert PaymentTooEarly();
        if (amount > permit.permitted.amount) revert AmountExceedsPermitted();
        if (witness.to == address(0)) revert InvalidDestination();
        if (owner == address(0)) revert InvalidOwner();
        if (address(PERMIT2).code.length == 0) revert InvalidPermit2Address();

        // Permit2 checks the signature over this witness hash, so a changed payee, facilitator or
        // start time fails there.
        bytes32 witnessHash = keccak256(abi.encode(WITNESS_TYPEHASH, witness));
        PERMIT2.permitWitnessTransferFrom(
            permit,
            ISignatureTransfer.SignatureTransferDetails({to: witness.to, requestedAmount: amount}),
            owner,
            witnessHash,
            WITNESS_TYPE_STRING,
            signature
        );
    }
}
