import { loadConfig } from '../infra/config/config.js';
import { createContext } from '../bootstrap.js';
import { demoUsers, seed } from '../seed.js';

/** `npm run seed`: creates the demo logins (idempotent). Runs a projector of its own while it works. */
const app = await createContext(loadConfig(), 'worker');
await app.init();
const created = await seed(app);
console.log(created.length ? `Seeded ${created.join(', ')}` : 'Demo users already exist');
for (const u of demoUsers) console.log(`  ${u.email} / ${u.password}${u.isAdmin ? ' (admin)' : ''}`);
await app.close();
