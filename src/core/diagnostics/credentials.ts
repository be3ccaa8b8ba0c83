/**
 * URLs as Jig shows them to a person or a bug report: a database URL or a release feed may carry a
 * password in its user part or a token in its query (`?password=`, `?token=`), and what the board
 * shows is what people paste into public issue trackers.
 */

/** Query parameters whose value is a credential in the URLs Jig is given (libpq's, registries'). */
const SECRET_PARAM = /pass|secret|token|key|auth|credential|signature|sig$/i;

/**
 * The URL without its password and without any query parameter that holds a credential; the user
 * name stays (it says which role connects, which a bug report needs). Text that does not parse as a
 * URL is cut to its scheme, since it may still hold one.
 */
export function withoutCredentials(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url);
    return scheme ? `${scheme[0]}//…` : '…';
  }
  u.password = '';
  for (const name of [...u.searchParams.keys()]) if (SECRET_PARAM.test(name)) u.searchParams.delete(name);
  return u.toString();
}

/** A URL inside text, up to the first space or quote: where a message quotes a config line. */
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi;

/**
 * Text with each URL in it stripped of its credentials: a problem's message may quote the line of
 * a config file it is about, and that line may be a webhook or database URL with a password.
 */
export function scrubUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => withoutCredentials(url));
}
