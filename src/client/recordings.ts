import { getRecording, listRecordings, recordItem } from '../contract/routes/recordings.js';
import type { JigClient } from './http.js';

export const recordItemRun = (c: JigClient, id: string) => c.call(recordItem, { params: { id } });
export const recordingsList = (c: JigClient) => c.call(listRecordings, {});
export const recordingOf = (c: JigClient, name: string) => c.call(getRecording, { params: { name } });
