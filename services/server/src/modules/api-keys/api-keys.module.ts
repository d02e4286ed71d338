import { Module } from '@nestjs/common';
import { API_KEY_GATE } from '../../infra/http/api-key-gate.port.js';
import { provideSubscription } from '../../infra/subscriptions/subscription.js';
import { ApiKeysGate } from './api-key-gate.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysCommandHandler } from './api-keys.command.js';
import { apiKeysProjection } from './read-models/api-keys.projection.js';

/**
 * Personal API keys: a user's own calls from their own systems within the scopes a key was given. Keys are made and
 * revoked on the user's stream of keys; calls are admitted against the `api_keys` read model by the key's hash.
 */
@Module({
  controllers: [ApiKeysController],
  providers: [
    ApiKeysCommandHandler,
    ApiKeysGate,
    { provide: API_KEY_GATE, useExisting: ApiKeysGate },
    provideSubscription(apiKeysProjection),
  ],
  exports: [API_KEY_GATE],
})
export class ApiKeysModule {}
