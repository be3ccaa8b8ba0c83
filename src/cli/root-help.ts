/** The part of `jig --help` after the verbs: exit codes and the environment, as the README lists them. */
export const ROOT_HELP_AFTER = `
Bare \`jig\` runs \`jig admin start\` (the server, in the foreground).

Exit codes:
  0  done
  1  not well: the server is degraded or not running, a doctor row failed, a lint or
     reload found an invalid file, an item ended other than completed (events -f),
     or you answered no
  2  usage: an unknown verb or flag, a bad value, a request the API refused (4xx)

Environment:
  JIG_HOME           the home: config, database, worktrees, logs (default ~/.jig)
  JIG_URL            the server the CLI calls (default: the one in JIG_HOME/run/jig.pid,
                     else where the home's last server listened, JIG_HOME/run/last-port,
                     else http://127.0.0.1:8765)
  JIG_TOKEN          bearer token for a server off loopback (default JIG_HOME/run/mcp-token)
  JIG_HOST, JIG_PORT where \`jig serve\` listens (else access.yaml, else 127.0.0.1:8765)
  JIG_CONFIG_DIR     the config folder (default JIG_HOME/config; JIG_TEMPLATES_DIR is the 1.x name)
  JIG_DATABASE_URL   postgres://… to keep the server's state in PostgreSQL (default: SQLite in JIG_HOME/run)
  JIG_LOG_LEVEL      server log level (default info)
  JIG_LOG_FORMAT     the server's log on stderr: pretty or json (default pretty on a terminal)
  JIG_SUPERVISED     1 when a service manager other than systemd restarts the server
  JIG_UPDATE_FEED    release feed URL the server checks for updates (default the npm registry)
  JIG_NPM            the npm that \`jig admin update --yes\` runs (default npm)
  JIG_CODE_CACHE     where \`jig serve\` keeps V8's compiled code (default beside the bundle,
                     else the temp directory), or off
  JIG_WORK_ITEM_ID   set in an item's tasks: the item verbs default to it
  NO_COLOR           no colour in terminal output
`;
