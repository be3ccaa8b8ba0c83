export type RowStatus = 'pass' | 'warn' | 'fail';

/** One line of `jig admin doctor`: what was checked, how it stands, and what to do when it is not well. */
export interface DoctorRow {
  check: string;
  status: RowStatus;
  detail: string;
  fix: string | null;
}
