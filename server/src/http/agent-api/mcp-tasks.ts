/**
 * Payments that wait for their owner, as MCP tasks the client polls instead of retrying blindly.
 *
 * - MCP 2026-07-28: the Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663). The server
 *   decides: a client that declares the extension on its tools/call gets `resultType: "task"` for
 *   a payment that is not final when the call answers, then polls `tasks/get` until the task is
 *   `completed` with the tool's result inline. `tasks/update` and `tasks/cancel` are acknowledged
 *   (a payment task never asks for input, and only the owner stops a payment: the task ends when
 *   the owner decides or the approval's time box runs out).
 * - MCP 2025-11-25: tasks in core. The client asks, by sending `task` with the tools/call of a tool
 *   listed with `execution.taskSupport`; it gets `{ task }`, polls `tasks/get`, then reads the
 *   result with `tasks/result`.
 *
 * The task is the agent's payment intent (services/agent-api/mcp-payment-task.ts): its id is the
 * intent's id and its state is read from the database on every call, so any of the stateless
 * servers answers for it, and another agent's task id is "not found". The v2 SDK serves both
 * task vocabularies on the wire but keeps no task state itself; these handlers are that state.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type CallToolResult,
  type Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isAppError } from '@purser/core';
import { z } from 'zod';
import type { AuthenticatedAgent } from '../../services/agents/authenticate-agent';
import { awaitBudgetTask, getBudgetTask } from '../../services/agent-api/mcp-budget-task';
import { awaitPaymentTask, getPaymentTask, type PaymentTask } from '../../services/agent-api/mcp-payment-task';
import { PAYMENT_WAIT_MS } from '../../services/agent-api/intent-outcome';
import type { AppDeps } from '../../deps';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The protocol generation a request is served in: 2026-07-28 (modern) or 2025-era (legacy). */
export type McpEra = 'modern' | 'legacy';

/** A person decides a payment that waits for approval: no point asking every half second. */
const OWNER_POLL_INTERVAL_MS = 3_000;
const PROCESSING_POLL_INTERVAL_MS = 500;

export function taskCapabilities(era: McpEra): ServerCapabilities {
  return era === 'modern' ? { extensions: { [TASKS_EXTENSION]: {} } } : { tasks: { requests: { tools: { call: {} } } } };
}

/** Whether this tools/call may be answered with a task: the client said so, in its era's way. */
export function clientTakesTask(era: McpEra, params: Record<string, unknown>, ctx: ServerContext): boolean {
  if (era === 'legacy') return typeof params.task === 'object' && params.task !== null;
  return declaresTasks(ctx);
}

function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

function modernTask(task: PaymentTask) {
  return {
    taskId: task.taskId,
    status: task.state,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    // The intent is kept for good, so the task never expires.
    ttlMs: null,
    ...(task.state === 'working' ? { pollIntervalMs: task.waitingForOwner ? OWNER_POLL_INTERVAL_MS : PROCESSING_POLL_INTERVAL_MS } : {}),
  };
}

function legacyTask(task: PaymentTask) {
  return {
    taskId: task.taskId,
    status: task.state,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: null,
    ...(task.state === 'working' ? { pollInterval: task.waitingForOwner ? OWNER_POLL_INTERVAL_MS : PROCESSING_POLL_INTERVAL_MS } : {}),
  };
}

/**
 * The tools/call answer that hands the client a task. The SDK types tools/call results as
 * CallToolResult; it passes a 2026 `resultType: "task"` through, and checks a 2025 one as a
 * CallToolResult, which needs `content` beside `task` (the text says where the payment stands).
 */
export function createTaskResult(era: McpEra, task: PaymentTask): CallToolResult {
  const result =
    era === 'modern'
      ? { resultType: 'task', ...modernTask(task) }
      : { task: legacyTask(task), content: [{ type: 'text', text: `${task.statusMessage} (task ${task.taskId})` }] };
  return result as unknown as CallToolResult;
}

const taskIdParams = z.looseObject({ taskId: z.string() });

/**
 * One of the agent's tasks: a payment (its intent's id) or a budget request (its session's);
 * anything else is the payment task's NOT_FOUND.
 */
async function getAgentTask(deps: AppDeps, agent: AuthenticatedAgent, taskId: string): Promise<PaymentTask> {
  try {
    return await getPaymentTask(deps, agent, taskId);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'NOT_FOUND') throw error;
    try {
      return await getBudgetTask(deps, agent, taskId);
    } catch (budgetError) {
      throw isAppError(budgetError) && budgetError.code === 'NOT_FOUND' ? error : budgetError;
    }
  }
}

/** The task once completed, or as it stands after `waitMs`. */
async function awaitAgentTask(deps: AppDeps, agent: AuthenticatedAgent, taskId: string, waitMs: number): Promise<PaymentTask> {
  const task = await getAgentTask(deps, agent, taskId);
  if (task.state === 'completed') return task;
  return task.kind === 'budget' ? awaitBudgetTask(deps, agent, taskId, waitMs) : awaitPaymentTask(deps, agent, taskId, waitMs);
}

export interface TaskMethodsOptions {
  deps: AppDeps;
  agent: AuthenticatedAgent;
  era: McpEra;
  /** The tool result of a completed task: what make_payment (or request_budget) would have answered. */
  resultOf: (task: PaymentTask) => CallToolResult;
  /** A fault of ours, logged, as the protocol error the client sees. */
  fault: (error: unknown, method: string) => ProtocolError;
}

/** Registers the era's task methods on a server that answers payments as tasks. */
export function registerTaskMethods(server: Server, options: TaskMethodsOptions): void {
  const { deps, agent, era, resultOf } = options;
  const method = (name: string, handler: (taskId: string) => Promise<Record<string, unknown>>) =>
    server.setRequestHandler(name, { params: taskIdParams }, async ({ taskId }, ctx) => {
      // SEP-2663: a client that does not declare the extension gets -32021 for every task method.
      if (era === 'modern' && !declaresTasks(ctx)) {
        throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
      }
      try {
        return await handler(taskId);
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        if (isAppError(error) && error.code === 'NOT_FOUND') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: ${error.message}`);
        throw options.fault(error, name);
      }
    });

  if (era === 'modern') {
    method('tasks/get', async (taskId) => {
      const task = await getAgentTask(deps, agent, taskId);
      // The inline result is a 2026-07-28 CallToolResult, which names its kind.
      return { ...modernTask(task), ...(task.state === 'completed' ? { result: { resultType: 'complete', ...resultOf(task) } } : {}) };
    });
    // Nothing to answer (a task never asks for input) and nothing the agent may stop:
    // acknowledged for a task of this agent, as the extension asks.
    method('tasks/update', async (taskId) => {
      await getAgentTask(deps, agent, taskId);
      return {};
    });
    method('tasks/cancel', async (taskId) => {
      await getAgentTask(deps, agent, taskId);
      return {};
    });
    return;
  }

  method('tasks/get', async (taskId) => legacyTask(await getAgentTask(deps, agent, taskId)));
  method('tasks/result', async (taskId) => {
    // 2025-11-25 blocks tasks/result until the task ends; a payment that waits for a person
    // cannot hold an HTTP request that long, so the wait is bounded and the client polls on.
    const task = await awaitAgentTask(deps, agent, taskId, PAYMENT_WAIT_MS);
    if (task.state !== 'completed') {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${task.statusMessage}; the task is not finished: poll tasks/get until it is completed`);
    }
    const result = resultOf(task);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  });
}
