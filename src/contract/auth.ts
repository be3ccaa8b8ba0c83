import { z } from 'zod';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * `POST /api/auth/login`. Sent as JSON by scripts and the board, or as a plain HTML form (which
 * may add `next`, the page to go back to) by the login page, so logging in needs no JavaScript.
 */
export const LoginRequest = z.object({
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH).describe('the password set with `jig admin password`'),
  next: z.string().max(2000).optional().describe('form logins only: where to go after logging in'),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginAnswer = z.object({
  expires_at: z.string().describe('ISO 8601 time the session ends (access.yaml `session_expiry_days`)'),
});
export type LoginAnswer = z.infer<typeof LoginAnswer>;
