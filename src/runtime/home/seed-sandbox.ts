import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bubblewrapFailsNow } from '../sandbox/detect.js';
import { writeFileAtomic } from './atomic-write.js';

/*
 * A new home jails every task where the machine can (issue 45, "default on"): the seeded
 * policy.yaml gets an instance sandbox of the best kind that works here. Only bubblewrap can be
 * seeded: podman and docker need an image, which is the repository's to name. Where it does not
 * work, the block is written commented out, with the reason, so turning it on is one edit; it is
 * not `kind: none`, which a chain's own sandbox would then conflict with (a sandbox is set once).
 * An existing home is never changed here: `jig admin doctor` proposes the line instead.
 */

/** Package registries a setup command reaches (`install` lists apply to the setup command only). */
const REGISTRIES = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'proxy.golang.org',
  'sum.golang.org',
  'index.crates.io',
  'static.crates.io',
  'rubygems.org',
  'repo.maven.apache.org',
];

/*
 * The model APIs' keys, as the agent CLIs send them. Each CLI trusts the jail's CA for the proxy's
 * certificate (checked with Claude Code, Codex and Gemini CLI against an HTTPS mock: the first and
 * last through NODE_EXTRA_CA_CERTS, Codex through SSL_CERT_FILE).
 */
const CREDENTIALS = [
  '{ env: ANTHROPIC_API_KEY, hosts: [api.anthropic.com], header: x-api-key }',
  "{ env: OPENAI_API_KEY, hosts: [api.openai.com], header: authorization, format: 'Bearer {value}' }",
  '{ env: GEMINI_API_KEY, hosts: [generativelanguage.googleapis.com], header: x-goog-api-key }',
];

const block = (why: string | null): string => {
  const lines = [
    'sandbox:',
    '  kind: bubblewrap',
    '  network:',
    '    allow: [] # hosts every task may reach; add what your tests fetch',
    '    install: # the setup command only',
    `      allow: [${REGISTRIES.join(', ')}]`,
    '  # API keys stay outside: inside, the variable holds a placeholder and the proxy sets the header',
    '  # (one whose variable is not set adds nothing)',
    '  credentials:',
    ...CREDENTIALS.map((c) => `    - ${c}`),
  ];
  const head = [
    '',
    '# Sandbox (docs/sandbox.md): every task of every item runs in a jail that sees its worktree and',
    "# little else, and reaches only the hosts listed here (each agent CLI's own model API and sign-in",
    '# are allowed for its tasks). A repository may set its own in repos.yaml.',
  ];
  if (why === null)
    return [
      ...head,
      '# Seeded because bubblewrap works on this machine; delete this block to run tasks unjailed.',
      ...lines,
      '',
    ].join('\n');
  return [
    ...head,
    `# Not on: ${why}. Install bubblewrap, then remove the leading # of the lines below.`,
    ...lines.map((l) => `# ${l}`),
    '',
  ].join('\n');
};

/**
 * Appends the instance sandbox to a policy.yaml that was just seeded. `knob` is
 * JIG_SANDBOX_DEFAULT: `none` seeds it commented out without looking (the test suite's servers),
 * anything else looks. Answers the kind seeded, or null.
 */
export function seedSandbox(configDir: string, knob: string | undefined): 'bubblewrap' | null {
  const why =
    knob === 'none' ? 'JIG_SANDBOX_DEFAULT=none was set when this home was made' : bubblewrapFailsNow();
  const file = join(configDir, 'policy.yaml');
  writeFileAtomic(file, readFileSync(file, 'utf8') + block(why));
  return why === null ? 'bubblewrap' : null;
}
