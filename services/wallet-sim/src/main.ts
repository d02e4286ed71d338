import { createWalletSim } from './index.js';

const port = Number(process.env.PORT ?? 4010);
const app = createWalletSim();
await app.listen({ port, host: '0.0.0.0' });
console.log(`wallet-sim listening on ${port}`);
