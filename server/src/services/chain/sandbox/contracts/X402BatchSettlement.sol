// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @notice What this contract asks of a deposit collector: move `amount` of `token` from `payer` to
/// this contract, under an authorisation the payer bound to `channelId`. The collectors that come
/// with the sandbox are contracts/X402Erc3009DepositCollector.sol and X402Permit2DepositCollector.sol.
interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData) external;
}

/// @title x402 "batch-settlement" payment channels for the Purser sandbox chain
/// @notice Written for the sandbox from the ABI, the EIP-712 types and the scheme text that x402's EVM
/// package uses, and installed with anvil_setCode at BATCH_SETTLEMENT_ADDRESS, where its
/// client, server and facilitator expect it.
///
/// A channel is identified by the EIP-712 hash of its immutable ChannelConfig under this contract's
/// domain ("x402 Batch Settlement", "1"). It holds `balance` (deposited, less refunds and
/// withdrawals) and `totalClaimed` (what the receiver side has claimed, never more than `balance`).
/// - deposit: a deposit collector pulls the payer's tokens under an authorisation bound to the
///   channel id; the channel is credited with what arrived, exactly `amount` or nothing.
/// - vouchers: the payer authorizer (or, when that is zero, the payer, EOA or ERC-1271) signs
///   Voucher(channelId, maxClaimableAmount): a cumulative ceiling on what may ever be claimed.
/// - claim / claimWithSignature: the receiver side raises `totalClaimed` to a row's `totalClaimed`,
///   which may not exceed the row's voucher ceiling (checked against the payer's signature) nor
///   the channel's balance; a row at or below what is claimed already is a no-op, so claims never
///   go backwards and a replayed batch moves nothing. No tokens move: claims are owed to the
///   receiver, per token.
/// - settle: anyone sends a receiver everything claimed for it and not yet sent, in one transfer.
/// - refund / refundWithSignature: the receiver side returns up to `balance - totalClaimed` to the
///   payer; the refund nonce advances first, so a signed refund works once even when nothing moves.
/// - initiateWithdraw / finalizeWithdraw: the payer's escape hatch, after the channel's delay; the
///   receiver side may still claim vouchers during the delay, and what the payer gets is capped
///   at the unclaimed balance when it finalizes.
/// @dev anvil_setCode runs no constructor: every address is a constant, the EIP-712 domain is
/// computed per call, and the reentrancy flag lives in transient storage.
contract x402BatchSettlement {
    struct ChannelConfig {
        address payer;
        address payerAuthorizer;
        address receiver;
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    struct Channel {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct PendingWithdrawal {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverTotals {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("x402 Batch Settlement");
    bytes32 private constant VERSION_HASH = keccak256("1");
    bytes32 private constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 private constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 private constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 private constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );

    /// @notice The only contracts deposits may come through: x402's canonical collector addresses.
    /// Any other contract could report a deposit it never made.
    address private constant ERC3009_DEPOSIT_COLLECTOR = 0x4020806089470a89826cB9fB1f4059150b550004;
    address private constant PERMIT2_DEPOSIT_COLLECTOR = 0x4020425FAf3B746C082C2f942b4E5159887B0005;

    uint40 private constant MIN_WITHDRAW_DELAY = 900;
    uint40 private constant MAX_WITHDRAW_DELAY = 2_592_000;

    /// @notice secp256k1n / 2: a signature with a larger s is the malleated twin of a valid one.
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    mapping(bytes32 channelId => Channel) private _channels;
    mapping(bytes32 channelId => PendingWithdrawal) private _pendingWithdrawals;
    mapping(bytes32 channelId => uint256) private _refundNonces;
    mapping(address receiver => mapping(address token => ReceiverTotals)) private _receivers;

    bool private transient _entered;

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed payer, address indexed collector, uint128 amount);
    event Claimed(bytes32 indexed channelId, address indexed receiver, uint128 amount, uint128 totalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed payer, uint128 amount, uint256 nonce);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint256 finalizableAt);
    event Withdrawn(bytes32 indexed channelId, address indexed payer, uint128 amount);

    error ClaimExceedsBalance(bytes32 channelId, uint128 totalClaimed, uint128 balance);
    error ClaimExceedsVoucher(bytes32 channelId, uint128 totalClaimed, uint128 maxClaimableAmount);
    error DepositNotReceived(uint256 expected, uint256 received);
    error EmptyClaimBatch();
    error InvalidAuthorizerSignature();
    error InvalidChannelConfig();
    error InvalidRefundNonce(uint256 expected, uint256 given);
    error InvalidVoucherSignature(bytes32 channelId);
    error MixedReceiverAuthorizers();
    error NoPendingWithdrawal();
    error NotPayer();
    error NotReceiver();
    error ReentrancyGuardReentrantCall();
    error TokenTransferFailed(address token);
    error UnknownCollector(address collector);
    error WithdrawDelayOutOfRange(uint40 withdrawDelay);
    error WithdrawExceedsUnclaimed(uint128 amount, uint128 unclaimed);
    error WithdrawNotReady(uint256 finalizableAt);
    error ZeroAmount();

    modifier nonReentrant() {
        if (_entered) revert ReentrancyGuardReentrantCall();
        _entered = true;
        _;
        _entered = false;
    }

    // ------------------------------------------------------------------ deposits

    /// @notice Credits the channel of `config` with `amount`, pulled from the payer by `collector`
    /// under the payer's authorisation in `collectorData`. Anyone may relay it (the facilitator does).
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        if (amount == 0) revert ZeroAmount();
        _validateConfig(config);
        if (collector != ERC3009_DEPOSIT_COLLECTOR && collector != PERMIT2_DEPOSIT_COLLECTOR) {
            revert UnknownCollector(collector);
        }
        bytes32 channelId = _channelId(config);
        IERC20Balance token = IERC20Balance(config.token);
        uint256 before = token.balanceOf(address(this));
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        uint256 received = token.balanceOf(address(this)) - before;
        // Credit what arrived, which must be what was asked: a collector cannot inflate a channel.
        if (received != amount) revert DepositNotReceived(amount, received);

        Channel storage channel = _channels[channelId];
        if (channel.balance == 0) emit ChannelCreated(channelId, config);
        channel.balance += amount;
        emit Deposited(channelId, config.payer, collector, amount);
    }

    // ------------------------------------------------------------------ claims and settlement

    /// @notice Claims for channels whose receiver or receiver authorizer is the caller, every row.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        if (voucherClaims.length == 0) revert EmptyClaimBatch();
        bytes32[] memory channelIds = new bytes32[](voucherClaims.length);
        for (uint256 i; i < voucherClaims.length; ++i) {
            ChannelConfig calldata config = voucherClaims[i].voucher.channel;
            if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotReceiver();
            channelIds[i] = _channelId(config);
        }
        _applyClaims(voucherClaims, channelIds);
    }

    /// @notice Claims that anyone may relay, with the receiver authorizer's signature over
    /// ClaimBatch(the rows' channel ids, voucher ceilings and new totals, in order). All rows must
    /// share that receiver authorizer.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        if (voucherClaims.length == 0) revert EmptyClaimBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        for (uint256 i = 1; i < voucherClaims.length; ++i) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert MixedReceiverAuthorizers();
        }
        (bytes32 digest, bytes32[] memory channelIds) = _claimBatchDigest(voucherClaims);
        if (!_isValidSignatureNow(authorizer, digest, authorizerSignature)) revert InvalidAuthorizerSignature();
        _applyClaims(voucherClaims, channelIds);
    }

    /// @notice Sends `receiver` all of `token` claimed for it and not yet sent. Anyone may call it;
    /// with nothing owed it does nothing.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverTotals storage totals = _receivers[receiver][token];
        uint128 amount = totals.totalClaimed - totals.totalSettled;
        if (amount == 0) return;
        totals.totalSettled = totals.totalClaimed;
        _safeTransfer(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    // ------------------------------------------------------------------ refunds and withdrawals

    /// @notice A refund by the receiver side itself: no signature needed.
    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotReceiver();
        _refund(config, _channelId(config), amount);
    }

    /// @notice A refund anyone may relay, with the receiver authorizer's signature over
    /// Refund(channelId, nonce, amount) for the channel's current refund nonce.
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 channelId = _channelId(config);
        uint256 expected = _refundNonces[channelId];
        if (nonce != expected) revert InvalidRefundNonce(expected, nonce);
        bytes32 digest = _hashTypedData(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
        if (!_isValidSignatureNow(config.receiverAuthorizer, digest, receiverAuthorizerSignature)) {
            revert InvalidAuthorizerSignature();
        }
        _refund(config, channelId, amount);
    }

    /// @notice The payer's request to take back `amount` of the unclaimed balance once the channel's
    /// withdraw delay has passed. A new request replaces a pending one and restarts the delay.
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        _onlyPayer(config);
        if (amount == 0) revert ZeroAmount();
        bytes32 channelId = _channelId(config);
        Channel storage channel = _channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        if (amount > unclaimed) revert WithdrawExceedsUnclaimed(amount, unclaimed);
        _pendingWithdrawals[channelId] = PendingWithdrawal({amount: amount, initiatedAt: uint40(block.timestamp)});
        emit WithdrawInitiated(channelId, amount, block.timestamp + config.withdrawDelay);
    }

    /// @notice Completes a withdrawal whose delay has passed: the payer gets the requested amount,
    /// or the unclaimed balance when claims made during the delay left less.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        _onlyPayer(config);
        bytes32 channelId = _channelId(config);
        PendingWithdrawal memory pending = _pendingWithdrawals[channelId];
        if (pending.initiatedAt == 0) revert NoPendingWithdrawal();
        uint256 finalizableAt = uint256(pending.initiatedAt) + config.withdrawDelay;
        if (block.timestamp < finalizableAt) revert WithdrawNotReady(finalizableAt);
        delete _pendingWithdrawals[channelId];

        Channel storage channel = _channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 amount = pending.amount < unclaimed ? pending.amount : unclaimed;
        if (amount == 0) return;
        channel.balance -= amount;
        _safeTransfer(config.token, config.payer, amount);
        emit Withdrawn(channelId, config.payer, amount);
        if (channel.balance == 0) emit ChannelClosed(channelId, config);
    }

    // ------------------------------------------------------------------ batching

    /// @notice Runs several of this contract's calls in one transaction, all or none (the
    /// facilitator claims and refunds together this way).
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i; i < data.length; ++i) {
            (bool success, bytes memory result) = address(this).delegatecall(data[i]);
            if (!success) {
                assembly ("memory-safe") {
                    revert(add(result, 0x20), mload(result))
                }
            }
            results[i] = result;
        }
    }

    // ------------------------------------------------------------------ views

    function channels(bytes32 channelId) external view returns (uint128 balance, uint128 totalClaimed) {
        Channel storage channel = _channels[channelId];
        return (channel.balance, channel.totalClaimed);
    }

    function pendingWithdrawals(bytes32 channelId) external view returns (uint128 amount, uint40 initiatedAt) {
        PendingWithdrawal storage pending = _pendingWithdrawals[channelId];
        return (pending.amount, pending.initiatedAt);
    }

    function receivers(address receiver, address token) external view returns (uint128 totalClaimed, uint128 totalSettled) {
        ReceiverTotals storage totals = _receivers[receiver][token];
        return (totals.totalClaimed, totals.totalSettled);
    }

    /// @notice The nonce the next refundWithSignature for this channel must carry.
    function refundNonce(bytes32 channelId) external view returns (uint256) {
        return _refundNonces[channelId];
    }

    function getChannelId(ChannelConfig calldata config) external view returns (bytes32) {
        return _channelId(config);
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) external view returns (bytes32) {
        return _hashTypedData(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) external view returns (bytes32) {
        return _hashTypedData(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) external view returns (bytes32) {
        (bytes32 digest,) = _claimBatchDigest(voucherClaims);
        return digest;
    }

    // ------------------------------------------------------------------ internals

    function _applyClaims(VoucherClaim[] calldata voucherClaims, bytes32[] memory channelIds) private {
        for (uint256 i; i < voucherClaims.length; ++i) {
            VoucherClaim calldata row = voucherClaims[i];
            bytes32 channelId = channelIds[i];
            uint128 ceiling = row.voucher.maxClaimableAmount;
            uint128 newTotal = row.totalClaimed;
            // The receiver authorizer decides how much of a voucher is owed, but never more than the
            // payer signed for.
            if (newTotal > ceiling) revert ClaimExceedsVoucher(channelId, newTotal, ceiling);
            _checkVoucher(channelId, row.voucher.channel, ceiling, row.signature);

            Channel storage channel = _channels[channelId];
            uint128 claimed = channel.totalClaimed;
            if (newTotal <= claimed) continue;
            if (newTotal > channel.balance) revert ClaimExceedsBalance(channelId, newTotal, channel.balance);
            uint128 amount = newTotal - claimed;
            channel.totalClaimed = newTotal;
            address receiver = row.voucher.channel.receiver;
            _receivers[receiver][row.voucher.channel.token].totalClaimed += amount;
            emit Claimed(channelId, receiver, amount, newTotal);
        }
    }

    function _refund(ChannelConfig calldata config, bytes32 channelId, uint128 amount) private {
        if (amount == 0) revert ZeroAmount();
        // First: a refund authorisation is spent even when there is nothing left to return.
        uint256 nonce = _refundNonces[channelId]++;
        Channel storage channel = _channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 refunded = amount < unclaimed ? amount : unclaimed;
        if (refunded == 0) return;
        channel.balance -= refunded;
        // A pending withdrawal shrinks by what the refund already returned.
        PendingWithdrawal storage pending = _pendingWithdrawals[channelId];
        if (pending.initiatedAt != 0) {
            if (refunded >= pending.amount) delete _pendingWithdrawals[channelId];
            else pending.amount -= refunded;
        }
        _safeTransfer(config.token, config.payer, refunded);
        emit Refunded(channelId, config.payer, refunded, nonce);
        if (channel.balance == 0) emit ChannelClosed(channelId, config);
    }

    function _checkVoucher(bytes32 channelId, ChannelConfig calldata config, uint128 ceiling, bytes calldata signature)
        private
        view
    {
        bytes32 digest = _hashTypedData(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, ceiling)));
        // A committed payer authorizer is an EOA key; without one the payer signs, EOA or ERC-1271.
        bool valid = config.payerAuthorizer != address(0)
            ? _recover(digest, signature) == config.payerAuthorizer
            : _isValidSignatureNow(config.payer, digest, signature);
        if (!valid) revert InvalidVoucherSignature(channelId);
    }

    function _claimBatchDigest(VoucherClaim[] calldata voucherClaims)
        private
        view
        returns (bytes32 digest, bytes32[] memory channelIds)
    {
        channelIds = new bytes32[](voucherClaims.length);
        bytes32[] memory entryHashes = new bytes32[](voucherClaims.length);
        for (uint256 i; i < voucherClaims.length; ++i) {
            VoucherClaim calldata row = voucherClaims[i];
            channelIds[i] = _channelId(row.voucher.channel);
            entryHashes[i] = keccak256(
                abi.encode(CLAIM_ENTRY_TYPEHASH, channelIds[i], row.voucher.maxClaimableAmount, row.totalClaimed)
            );
        }
        digest = _hashTypedData(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entryHashes)))));
    }

    function _channelId(ChannelConfig calldata config) private view returns (bytes32) {
        return _hashTypedData(keccak256(abi.encode(CHANNEL_CONFIG_TYPEHASH, config)));
    }

    function _hashTypedData(bytes32 structHash) private view returns (bytes32) {
        bytes32 domainSeparator =
            keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator, structHash));
    }

    function _validateConfig(ChannelConfig calldata config) private pure {
        if (
            config.payer == address(0) || config.receiver == address(0) || config.receiverAuthorizer == address(0)
                || config.token == address(0)
        ) revert InvalidChannelConfig();
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) {
            revert WithdrawDelayOutOfRange(config.withdrawDelay);
        }
    }

    function _onlyPayer(ChannelConfig calldata config) private view {
        if (msg.sender != config.payer && (config.payerAuthorizer == address(0) || msg.sender != config.payerAuthorizer)) {
            revert NotPayer();
        }
    }

    /// @notice The signer of a 65-byte (r, s, v) signature, or zero when it is malformed or malleated.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 0x20))
            v := byte(0, calldataload(add(signature.offset, 0x40)))
        }
        if (uint256(s) > MAX_S || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// @notice Whether `signer` signed `digest`: its ECDSA key, or, for a contract, ERC-1271.
    function _isValidSignatureNow(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer == address(0)) return false;
        if (_recover(digest, signature) == signer) return true;
        if (signer.code.length == 0) return false;
        (bool success, bytes memory result) =
            signer.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return success && result.length >= 32 && abi.decode(result, (bytes32)) == bytes32(IERC1271.isValidSignature.selector);
    }

    function _safeTransfer(address token, address to, uint256 value) private {
        (bool success, bytes memory result) = token.call(abi.encodeCall(IERC20Balance.transfer, (to, value)));
        bool ok = success && (result.length == 0 ? token.code.length != 0 : abi.decode(result, (bool)));
        if (!ok) revert TokenTransferFailed(token);
    }
}
