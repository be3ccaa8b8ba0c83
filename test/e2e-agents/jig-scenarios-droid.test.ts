import { moreScenarios } from './jig-scenarios-more.js';

// Droid through Jig items: the scenarios of jig-scenarios-more.ts, in a file of its own so the
// five CLIs run side by side.
moreScenarios('droid');
