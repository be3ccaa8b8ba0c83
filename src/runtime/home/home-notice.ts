/** Something the first start did or found, logged once by the caller. */
export interface HomeNotice {
  level: 'info' | 'warn';
  key: string;
  message: string;
  /** A condition that stays true on every start (told once per home), not a move (told when made). */
  standing?: boolean;
}
