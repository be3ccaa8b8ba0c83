import { z } from 'zod';
import { defineRoute } from '../route.js';

/*
 * The web board: one HTML page for every screen path (the board routes in the browser) and its
 * hashed files. Each screen path is listed, so a path the board does not have is a plain 404.
 */
const page = (path: `/${string}`, summary: string) =>
  defineRoute({ method: 'GET', path, summary, tags: ['board'], hide: true });

export const boardPages = [
  page('/', 'The board: what needs you, what runs, what has not started, what is done'),
  page('/archived', 'The board: archived items'),
  page('/work-items/:id', "The board: an item's page"),
  page('/work-items/:id/nodes/:node', "The board: a node of an item's chain"),
  page('/work-items/:id/review', "The board: an item's review (its diff, threads and verdict)"),
  page('/analytics', 'The board: analytics'),
  page('/templates', 'The board: templates'),
  page('/templates/:area', 'The board: a template editor'),
  page('/templates/:area/:name', 'The board: one template'),
  page('/settings', 'The board: settings'),
  page('/settings/:screen', 'The board: a settings screen'),
  page('/settings/:screen/:name', 'The board: one entry of a settings screen'),
  page('/more', 'The board: the screens a phone reaches from its More tab'),
];

export const boardAsset = defineRoute({
  hide: true,
  method: 'GET',
  path: '/assets/:file',
  summary: "The board's scripts and styles (hashed names, cached for a year)",
  tags: ['board'],
  params: z.object({ file: z.string() }),
});
