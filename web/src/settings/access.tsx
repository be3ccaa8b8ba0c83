import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AccessAnswer, AccessPutBody } from '../../../src/contract/settings-route.js';
import { callRoute, routes } from '../api.js';
import { accessQuery, applyQuery } from '../queries.js';
import { parseNumber } from './draft.js';

/*
 * Settings › Access: access.yaml (its GET and PUT), the login password (its PUT, the current one
 * required when one is set) and the tokens (rotated, after saying what a rotation breaks).
 */

export function AccessPage() {
  const q = useQuery(accessQuery());
  if (q.error)
    return (
      <p className="banner error" role="alert">
        {q.error.message}
      </p>
    );
  if (!q.data) return <p className="muted">Loading access…</p>;
  return (
    <div className="settings-area">
      {q.data.problem && (
        <p className="banner error" role="alert">
          access.yaml does not load, so loopback defaults are in force: {q.data.problem}
        </p>
      )}
      {/* Keyed on the listen fields alone: a password change must not wipe unsaved edits here. */}
      <Listen
        key={JSON.stringify([q.data.bind, q.data.port, q.data.allowed_hosts, q.data.session_expiry_days])}
        a={q.data}
      />
      <Password set={q.data.password_set} />
      <Tokens />
    </div>
  );
}

function Listen({ a }: { a: AccessAnswer }) {
  const client = useQueryClient();
  const [bind, setBind] = useState(a.bind);
  const [port, setPort] = useState(String(a.port));
  const [hosts, setHosts] = useState(a.allowed_hosts.join('\n'));
  const [days, setDays] = useState(String(a.session_expiry_days));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    const body: AccessPutBody = {};
    if (bind !== a.bind) body.bind = bind.trim();
    const p = parseNumber(port);
    if (String(p) !== String(a.port)) {
      if (typeof p !== 'number') return setError('The port must be a number.');
      body.port = p;
    }
    const list = hosts
      .split('\n')
      .map((h) => h.trim())
      .filter(Boolean);
    if (list.join('\n') !== a.allowed_hosts.join('\n')) body.allowed_hosts = list;
    const dd = parseNumber(days);
    if (String(dd) !== String(a.session_expiry_days)) {
      if (typeof dd !== 'number') return setError('The session length must be a number of days.');
      body.session_expiry_days = dd;
    }
    setBusy(true);
    setError(null);
    try {
      client.setQueryData(accessQuery().queryKey, await callRoute(routes.putAccess, { body }));
      await client.invalidateQueries({ queryKey: applyQuery().queryKey });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="settings-card"
      aria-labelledby="listen-h"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="listen-h">Where the board listens</h2>
      <p className="muted">
        Now on {a.running.bind}:{a.running.port}.{' '}
        {a.restart_needed ? (
          <strong>A restart applies the saved address.</strong>
        ) : (
          'The saved address is in force.'
        )}
      </p>
      <div className="fields">
        <label>
          Address
          <select value={bind} onChange={(e) => setBind(e.target.value)}>
            <option value="127.0.0.1">127.0.0.1 (this machine only)</option>
            <option value="0.0.0.0">0.0.0.0 (the network: needs a password)</option>
            {!['127.0.0.1', '0.0.0.0'].includes(a.bind) && <option value={a.bind}>{a.bind}</option>}
          </select>
        </label>
        <label>
          Port
          <input inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} />
        </label>
        <label>
          Session length (days)
          <input inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <label className="wide">
          Allowed host names (one a line; for a reverse proxy&apos;s public name)
          <textarea rows={2} value={hosts} onChange={(e) => setHosts(e.target.value)} />
        </label>
      </div>
      {error && (
        <p className="banner error" role="alert">
          {error}
        </p>
      )}
      <div className="buttons">
        <button type="submit" className="primary" disabled={busy}>
          Save access
        </button>
      </div>
    </form>
  );
}

function Password({ set }: { set: boolean }) {
  const client = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function send(password: string | null) {
    setError(null);
    setDone(null);
    try {
      const answer = await callRoute(routes.putAccessPassword, {
        body: { password, ...(set ? { current } : {}) },
      });
      client.setQueryData(accessQuery().queryKey, answer);
      setCurrent('');
      setNext('');
      setDone(password === null ? 'Password cleared.' : 'Password set.');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <form
      className="settings-card"
      aria-labelledby="password-h"
      onSubmit={(e) => {
        e.preventDefault();
        void send(next);
      }}
    >
      <h2 id="password-h">Login password</h2>
      <p className="muted">
        {set
          ? 'A password is set. Changing or clearing it ends every other session.'
          : 'No password is set: only this machine can reach the board.'}
      </p>
      <div className="fields">
        {set && (
          <label>
            Current password
            <input
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          </label>
        )}
        <label>
          New password
          <input
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </label>
      </div>
      {error && (
        <p className="banner error" role="alert">
          {error}
        </p>
      )}
      {done && <p role="status">{done}</p>}
      <div className="buttons">
        <button type="submit" className="primary" disabled={next === ''}>
          {set ? 'Change password' : 'Set password'}
        </button>
        {set && (
          <button type="button" className="danger" onClick={() => void send(null)}>
            Clear password
          </button>
        )}
      </div>
    </form>
  );
}

function Tokens() {
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function rotate() {
    setError(null);
    try {
      const r = await callRoute(routes.rotateTokens, { body: { tokens: ['mcp', 'trigger'] } });
      setDone(`Rotated: ${r.rotated.join(', ')}.`);
      setAsking(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  return (
    <section className="settings-card" aria-labelledby="tokens-h">
      <h2 id="tokens-h">Tokens</h2>
      <p className="muted">
        The MCP/CLI token (<code>run/mcp-token</code>) and the trigger token (<code>run/trigger-token</code>)
        let programs call Jig. Replace them if one may have leaked.
      </p>
      {!asking && <button onClick={() => setAsking(true)}>Rotate tokens…</button>}
      {asking && (
        <div className="banner" role="group" aria-label="Confirm token rotation">
          <p>
            Both tokens are replaced now. Every MCP client, <code>jig</code> CLI on another machine and
            trigger caller holding the old values is refused from its next request until it is given the new
            ones. Browser sessions are not affected.
          </p>
          <div className="buttons">
            <button onClick={() => setAsking(false)}>Keep the tokens</button>
            <button className="danger" onClick={() => void rotate()}>
              Rotate both tokens
            </button>
          </div>
        </div>
      )}
      {done && <p role="status">{done}</p>}
      {error && (
        <p className="banner error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
