import { createInterface } from 'node:readline';

/**
 * A yes/no question on the terminal (asked on stderr, so stdout stays the command's answer). EOF
 * (Ctrl-D, or stdin at /dev/null) closes the interface without an answer: that is a no, not a hang.
 */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await new Promise<string>((res) => {
    rl.once('close', () => res(''));
    rl.question(question, res);
  });
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}
