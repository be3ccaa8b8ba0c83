/**
 * The header a client sends to say what drives it, so the moves it makes are recorded with the
 * right actor: the MCP tools send `mcp` (an agent acting for a person), and their moves are `by:
 * agent`; without it a move is a person's (`by: human`). Informational, like `x-jig-work-item`:
 * it grants nothing.
 */
export const VIA_HEADER = 'x-jig-via';
export const MCP_VIA = 'mcp';
