import { loadConfig } from '../infra/config/config.js';
import { createContext } from '../bootstrap.js';
import { DATABASE } from '../infra/db/database.module.js';
import type { Database } from '../infra/db/database.js';
import { EVENT_STORE, type EventStore } from '../infra/event-store/event-store.port.js';
import { Projector } from '../infra/projections/projector.js';
import { readModels } from '../read-models.js';

/** `npm run replay`: empties every read model and rebuilds it from the events. Stop the worker first. */
const app = await createContext(loadConfig(), 'cli');
const projector = new Projector(app.get<Database>(DATABASE), app.get<EventStore>(EVENT_STORE), readModels);
const started = Date.now();
const events = await projector.rebuild();
const seconds = (Date.now() - started) / 1000;
console.log(`Replayed ${events} events into ${readModels.length} read models in ${seconds.toFixed(1)} s`);
await app.close();
