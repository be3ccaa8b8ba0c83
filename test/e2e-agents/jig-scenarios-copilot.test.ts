import { moreScenarios } from './jig-scenarios-more.js';

// Copilot CLI through Jig items: the scenarios of jig-scenarios-more.ts, in a file of its own so the
// five CLIs run side by side.
moreScenarios('copilot');
