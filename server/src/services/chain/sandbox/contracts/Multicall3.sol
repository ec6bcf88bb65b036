// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Multicall3 for the Purser sandbox chain
/// @notice Batches calls in one eth_call. Installed at 0xcA11bde05977b3631167028862bE2a173976CA11,
/// where Multicall3 lives on public EVM chains, so the x402 facilitator (tryAggregate) and viem
/// (aggregate3) find it on the local chain too. Only the functions they use are implemented.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Calls each target; reverts on a failed call only when `requireSuccess` is set.
    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory result) = calls[i].target.call(calls[i].callData);
            require(success || !requireSuccess, "Multicall3: call failed");
            returnData[i] = Result(success, result);
        }
    }

    /// @notice Calls each target; reverts on a failed call unless that call allows failure.
    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory result) = calls[i].target.call(calls[i].callData);
            require(success || calls[i].allowFailure, "Multicall3: call failed");
            returnData[i] = Result(success, result);
        }
    }
}
