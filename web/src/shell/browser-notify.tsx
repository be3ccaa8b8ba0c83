import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import type { EventRecord } from '../../../src/contract/events.js';
import { useQueryClient } from '@tanstack/react-query';
import { useEventListener } from '../live.js';
import { itemQuery } from '../queries.js';

/*
 * "This browser" notifications (docs/notifications.md): while the board is open, an item that waits
 * at a gate, stops for a person or asks for a permission raises a Web Notification, if the person
 * turned them on here (kept in this browser only) and the browser allows it. One per item at a
 * time: a newer one replaces it (the tag is the item's id); a click opens the item.
 */

const KEY = 'jig.notify';
const WANTED: Record<string, string> = {
  gate_requested: 'waits for your approval',
  work_item_needs_human: 'needs you',
  permission_asked: 'asks for a permission',
};

type Permission = 'unsupported' | NotificationPermission;

const permissionNow = (): Permission => ('Notification' in window ? Notification.permission : 'unsupported');

function reasonOf(e: EventRecord): string {
  const p = e.payload;
  for (const k of ['reason', 'message', 'tool_name'])
    if (typeof p[k] === 'string' && p[k] !== '') return p[k];
  return '';
}

export function BrowserNotify() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const [on, setOn] = useState(() => localStorage.getItem(KEY) === '1');
  const enabled = on && permission === 'granted';

  const onEvent = useCallback(
    (e: EventRecord) => {
      const what = WANTED[e.type];
      if (!enabled || !what || !e.work_item_id) return;
      const id = e.work_item_id;
      // The item's title, from the cache when it is there (the live batch reads the item too).
      void client
        .fetchQuery(itemQuery(id))
        .then((item) => {
          const note = new Notification(`${item.title} ${what}`, { body: reasonOf(e), tag: id });
          note.onclick = () => {
            window.focus();
            void navigate(`/work-items/${id}`);
          };
        })
        .catch(() => undefined);
    },
    [enabled, navigate, client],
  );
  useEventListener(onEvent);

  if (permission === 'unsupported') return null;
  if (permission === 'denied')
    return <div className="muted small">Notifications are blocked for this site in the browser.</div>;
  const toggle = async () => {
    if (enabled) {
      localStorage.removeItem(KEY);
      setOn(false);
      return;
    }
    const got = permission === 'granted' ? 'granted' : await Notification.requestPermission();
    setPermission(got);
    if (got === 'granted') {
      localStorage.setItem(KEY, '1');
      setOn(true);
    }
  };
  return (
    <button type="button" className="link small" aria-pressed={enabled} onClick={() => void toggle()}>
      {enabled ? 'Notifications on in this browser' : 'Notify me in this browser'}
    </button>
  );
}
