/**
 * A short mark of a Jig home, sent by the server on every answer (`x-jig-home`) so a client can
 * tell that the server answering runs on another home than its own (two homes, one port). A mark,
 * not the path: nothing about the machine's folders leaves in a header. FNV-1a over the real path
 * of the home, twice with different offsets: a collision only means a missed note.
 */
export const HOME_MARK_HEADER = 'x-jig-home';

export function homeMark(realHome: string): string {
  const fnv = (offset: number) => {
    let h = offset >>> 0;
    for (let i = 0; i < realHome.length; i++) {
      h ^= realHome.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  };
  return fnv(0x811c9dc5) + fnv(0x050c5d1f);
}
