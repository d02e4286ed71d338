export * from './auth.js';
export * from './admin.js';
export * from './realtime.js';
export * from './queues.js';
export * from './health.js';
export * from './identity.js';
