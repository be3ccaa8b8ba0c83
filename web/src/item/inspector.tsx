import { useQueryClient } from '@tanstack/react-query';
import { TaskView } from './task-view.js';
import { useState } from 'react';
import type { ModelNode, ModelStep, ModelTask } from '../../../src/contract/config/chain-model.js';
import { callRoute, routes, type Item } from '../api.js';
import { putItem } from '../item-cache.js';
import { duration, runsText, type NodeStatus } from './node-states.js';
import { RichText } from './rich-text.js';

/** What a task runs, in one line: the agent's harness and prompt, the command, the builtin. */
function taskLine(t: ModelTask): string {
  switch (t.kind) {
    case 'agent':
      return `${typeof t.harness === 'string' ? t.harness : 'agent'}: ${t.prompt.split('\n')[0]}`;
    case 'subprocess':
      return 'run' in t && typeof t.run === 'string'
        ? `$ ${t.run}`
        : 'argv' in t && Array.isArray(t.argv)
          ? `$ ${t.argv.join(' ')}`
          : 'a command';
    case 'builtin':
      return `builtin ${t.ref}`;
    case 'forge':
      return `forge ${String(t.target)}`;
  }
}

function Steps({
  steps,
  picked,
  onPick,
}: {
  steps: readonly ModelStep[];
  picked: string | null;
  onPick: (task: ModelTask) => void;
}) {
  return (
    <ol className="steps">
      {steps.map((s) => (
        <li key={s.path}>
          <code>{s.path}</code>
          <ul>
            {s.tasks.map((t) => (
              <li key={t.path}>
                <button
                  type="button"
                  className="link"
                  aria-pressed={picked === t.path}
                  onClick={() => onPick(t)}
                  aria-label={`Task ${t.path}`}
                >
                  <code>{t.path}</code>
                </button>{' '}
                <span className="muted">({t.kind})</span> — {taskLine(t)}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/** The selected node: what it is, what it runs, where it stands; Retry from it when the item stopped. */
export function Inspector({
  item,
  node,
  status,
}: {
  item: Item;
  node: ModelNode;
  status: NodeStatus | undefined;
}) {
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [task, setTask] = useState<ModelTask | null>(null);
  const retry = async () => {
    setError(null);
    try {
      await putItem(
        client,
        await callRoute(routes.retryItem, { params: { id: item.id }, body: { path: node.id } }),
      );
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <aside className="inspector" aria-label={`Node ${node.id}`}>
      <h3>
        {node.kind === 'gate' ? 'Gate' : 'Node'} <code>{node.id}</code>
      </h3>
      {status && (
        <p className="muted">
          {status.state}
          {status.ms !== null ? ` · ${duration(status.ms)}` : ''} · {runsText(node.kind, status.runs)}
        </p>
      )}
      {node.description && <RichText text={node.description} />}
      {node.kind === 'gate' ? (
        <dl>
          {node.message && (
            <>
              <dt>Message</dt>
              <dd>
                <RichText text={node.message} />
              </dd>
            </>
          )}
          <dt>Document</dt>
          <dd>{node.artifact ?? 'none'}</dd>
          <dt>A rejection goes back to</dt>
          <dd>{node.reject_to ?? 'the nearest node before it'}</dd>
        </dl>
      ) : (
        <>
          <Steps steps={node.steps} picked={task?.path ?? null} onPick={setTask} />
          {task && <TaskView item={item} task={task} />}
          {node.fix_loop && (
            <p className="muted small">
              Fix loop: up to {node.fix_loop.max_attempts ?? 'the policy’s'} repairs (
              {node.fix_loop.steps.length} step
              {node.fix_loop.steps.length === 1 ? '' : 's'})
            </p>
          )}
          {item.status === 'stopped' && item.stop?.kind !== 'gate' && (
            <button type="button" onClick={() => void retry()}>
              Retry from {node.id}
            </button>
          )}
        </>
      )}
      {error && <p role="alert">{error}</p>}
    </aside>
  );
}
