import { login } from '../contract/routes/auth.js';
import { escapeHtml, simplePage } from './html.js';

/** Where a form login may send the browser: a path on this server, nothing else (no open redirect). */
export function safeNext(next: string | undefined): string {
  if (next === undefined || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return '/';
  return /[\u0000-\u001f\u007f]/.test(next) ? '/' : next;
}

/** The plain login page: a form that works without the board and without JavaScript. */
export function loginPage(next: string, message: string | null): string {
  const note = message === null ? '' : `<p role="alert"><strong>${escapeHtml(message)}</strong></p>\n`;
  return simplePage(
    'Log in to Jig',
    `${note}<form method="post" action="${login.path}">
<input type="hidden" name="next" value="${escapeHtml(safeNext(next))}">
<p><label>Password<br><input type="password" name="password" autocomplete="current-password" required autofocus></label></p>
<p><button type="submit">Log in</button></p>
</form>`,
  );
}

export function noPasswordPage(loopback: boolean): string {
  const why = loopback
    ? '<p>This server is bound to loopback: programs and browsers on this machine need no login.</p>'
    : '<p>No password is set, so nobody can log in, and callers from other machines are refused.</p>';
  return simplePage(
    'No password is set',
    `${why}\n<p>To set one, run <code>jig admin password</code> on the server's machine.</p>`,
  );
}
