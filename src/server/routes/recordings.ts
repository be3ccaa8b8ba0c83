import { getRecording, listRecordings, recordItem } from '../../contract/routes/recordings.js';
import type { Services } from '../compose.js';
import { routeFile } from '../route-file.js';

/** Recordings of real runs, which chain tests replay (issue 51). */
export const recordingRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'recordings'>) => {
  r.serve(recordItem, async ({ params }, reply) => {
    const { name, path, recording } = await inst.recordings.record(params.id);
    const agents = recording.sessions.filter((s) => s.kind === 'agent');
    return reply.code(201).send({
      name,
      path,
      sessions: recording.sessions.length,
      gates: recording.gates.length,
      not_captured: agents.filter((s) => s.files === null).length,
    });
  });
  r.serve(listRecordings, async () => ({ recordings: inst.recordings.list() }));
  r.serve(getRecording, async ({ params }) => inst.recordings.read(params.name));
});
