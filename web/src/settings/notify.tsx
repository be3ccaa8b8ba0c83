import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { NotifyEvent, NotifyFormat } from '../../../src/contract/config/notify.js';
import type { NotifyAnswer, NotifyPutBody, NotifyTestAnswer } from '../../../src/contract/notify-route.js';
import { callRoute, routes } from '../api.js';
import { notifyQuery } from '../queries.js';

/*
 * Settings › Notifications: notify.yaml through its GET and PUT. The URL and the secret are
 * never shown back (only whether they are set), so their fields replace or clear them; "Send a
 * test" posts one message now and shows what the webhook answered.
 */

const FORMATS: NotifyFormat[] = ['json', 'slack', 'discord', 'telegram'];

// The contract's list is schema code, which the bundle does not carry; the Record keeps this whole.
const EVENT_LABEL: Record<NotifyEvent, string> = {
  gate_requested: 'An item waits at a gate',
  work_item_needs_human: 'An item needs a person',
  permission_asked: 'An agent asks for a permission',
  work_item_completed: 'An item completed',
  work_item_cancelled: 'An item was cancelled',
  work_item_abandoned: 'An item was abandoned',
};
const NOTIFY_EVENTS: NotifyEvent[] = [
  'gate_requested',
  'work_item_needs_human',
  'permission_asked',
  'work_item_completed',
  'work_item_cancelled',
  'work_item_abandoned',
];

export function NotifyPage() {
  const q = useQuery(notifyQuery());
  // Outside the form, which starts again from each new answer: "Saved." outlives the save.
  const [saved, setSaved] = useState(false);
  if (q.error)
    return (
      <p className="banner error" role="alert">
        {q.error.message}
      </p>
    );
  if (!q.data) return <p className="muted">Loading notifications…</p>;
  // Keyed by the answer: a save starts the form again from what the server now holds.
  return <NotifyForm key={JSON.stringify(q.data)} n={q.data} saved={saved} setSaved={setSaved} />;
}

function NotifyForm({
  n,
  saved,
  setSaved,
}: {
  n: NotifyAnswer;
  saved: boolean;
  setSaved: (v: boolean) => void;
}) {
  const client = useQueryClient();
  const [change, setChange] = useState<NotifyPutBody>({});
  const [error, setError] = useState<string | null>(null);
  const [test, setTest] = useState<NotifyTestAnswer | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const v = { ...n, ...change };
  const events = change.events ?? n.events;
  const edit = (c: NotifyPutBody) => {
    setSaved(false);
    setChange({ ...change, ...c });
  };

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const answer = await callRoute(routes.putNotify, { body: change });
      client.setQueryData(notifyQuery().queryKey, answer);
      setSaved(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  async function sendTest() {
    setBusy(true);
    setTest(null);
    setTestError(null);
    try {
      setTest(await callRoute(routes.testNotify));
    } catch (e) {
      setTestError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="settings-area">
      {n.problem && (
        <p className="banner error" role="alert">
          notify.yaml does not load, so nothing is sent: {n.problem}
        </p>
      )}
      <form
        className="settings-card"
        aria-labelledby="webhook-h"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h2 id="webhook-h">Webhook</h2>
        <p className="muted">
          Jig posts a message to this address when an item needs you. For notifications while the board is
          open, use <em>Notify me in this browser</em> at the sidebar&apos;s foot.
        </p>
        <div className="fields">
          <label className="check">
            <input
              type="checkbox"
              checked={v.enabled}
              onChange={(e) => edit({ enabled: e.target.checked })}
            />
            Send notifications
          </label>
          <Secret
            label="Webhook URL"
            wide
            isSet={n.url_set}
            value={change.url}
            onChange={(url) => edit({ url })}
          />
          <label>
            Format
            <select
              value={v.format}
              onChange={(e) => edit({ format: FORMATS.find((f) => f === e.target.value) ?? 'json' })}
            >
              {FORMATS.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          </label>
          {v.format === 'telegram' && (
            <label>
              Telegram chat id
              <input
                value={v.chat_id ?? ''}
                onChange={(e) => edit({ chat_id: e.target.value === '' ? null : e.target.value })}
              />
            </label>
          )}
          <Secret
            label="Signing secret (16 characters or more)"
            isSet={n.secret_set}
            value={change.secret}
            onChange={(secret) => edit({ secret })}
          />
          <label>
            Board address for links
            <input
              value={v.base_url ?? ''}
              placeholder="https://jig.example.org"
              onChange={(e) => edit({ base_url: e.target.value === '' ? null : e.target.value })}
            />
          </label>
        </div>
        <fieldset>
          <legend>Send for</legend>
          {NOTIFY_EVENTS.map((ev) => (
            <label key={ev} className="check">
              <input
                type="checkbox"
                checked={events.includes(ev)}
                onChange={(e) =>
                  edit({ events: e.target.checked ? [...events, ev] : events.filter((x) => x !== ev) })
                }
              />
              {EVENT_LABEL[ev]}
            </label>
          ))}
        </fieldset>
        {error && (
          <p className="banner error" role="alert">
            {error}
          </p>
        )}
        <div className="buttons">
          <button type="submit" className="primary" disabled={busy || Object.keys(change).length === 0}>
            Save
          </button>
          {saved && <span role="status">Saved.</span>}
          <button type="button" disabled={busy || !n.url_set} onClick={() => void sendTest()}>
            Send a test
          </button>
          {!n.url_set && <span className="muted small">Save a webhook URL to send a test.</span>}
        </div>
        {test && (
          <p className={test.sent ? 'banner ok' : 'banner error'} role="status">
            {test.sent
              ? `Test sent: the webhook answered HTTP ${test.status ?? '?'}.`
              : `Test not sent${test.status !== null ? ` (HTTP ${test.status})` : ''}: ${test.error ?? 'no answer'}.`}
          </p>
        )}
        {testError && (
          <p className="banner error" role="alert">
            {testError}
          </p>
        )}
      </form>
    </div>
  );
}

/** A value the server never shows back: type to replace it, or clear it. */
function Secret({
  label,
  wide = false,
  isSet,
  value,
  onChange,
}: {
  label: string;
  /** Two columns of the grid: a URL is long. */
  wide?: boolean;
  isSet: boolean;
  value: string | null | undefined;
  onChange: (v: string | null) => void;
}) {
  const cleared = value === null;
  const id = useId();
  return (
    <div className={`field${wide ? ' field-wide' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {/* The input keeps the field's width; Clear goes under it instead of squeezing it. */}
      <span className="field-input secret-input">
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={value ?? ''}
          placeholder={cleared ? 'cleared on save' : isSet ? 'set — type to replace' : 'not set'}
          onChange={(e) => onChange(e.target.value)}
        />
        {isSet && !cleared && (
          <button type="button" className="link" onClick={() => onChange(null)}>
            Clear {label.toLowerCase()}
          </button>
        )}
      </span>
    </div>
  );
}
