import type { LiveState } from '../live.js';

/**
 * While the event stream is down the server is away (stopped, restarting, or the network is): the
 * shell dims its page and turns its buttons off (shell.css `.away`), and this says why and that it
 * comes back by itself. It covers nothing: what the page shows can still be read and scrolled.
 */
export function AwayBanner({ live }: { live: LiveState }) {
  if (live !== 'reconnecting') return null;
  return (
    <div className="away-banner" role="alert">
      <strong>Jig&apos;s server is not answering.</strong> Actions are paused until it is back; the board
      reconnects by itself and then shows what happened meanwhile.
    </div>
  );
}
