import { randomBytes } from 'node:crypto';
import { type DynamicModule, Global, Module, type OnApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PAYMENT_GATEWAY, type PaymentGateway } from './payment-gateway.port.js';
import { StripePaymentGateway } from './stripe-payment-gateway.js';
import { TestPaymentGateway } from './test-payment-gateway.js';

/** Stops the test gateway's webhook timers with the process. */
@Injectable()
class PaymentGatewayLifecycle implements OnApplicationShutdown {
  constructor(@Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway) {}
  onApplicationShutdown() {
    if (this.gateway instanceof TestPaymentGateway) this.gateway.close();
  }
}

/** The card payment gateway: Stripe when its keys are set, else the test gateway (with a webhook secret of its own). */
@Global()
@Module({})
export class PaymentsInfraModule {
  static forRoot(): DynamicModule {
    return {
      module: PaymentsInfraModule,
      providers: [
        {
          provide: PAYMENT_GATEWAY,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig): PaymentGateway =>
            config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
              ? new StripePaymentGateway({
                  secretKey: config.STRIPE_SECRET_KEY,
                  webhookSecret: config.STRIPE_WEBHOOK_SECRET,
                  publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? null,
                  ...(config.STRIPE_API_URL ? { apiUrl: config.STRIPE_API_URL } : {}),
                })
              : new TestPaymentGateway(config.STRIPE_WEBHOOK_SECRET ?? `whsec_test_${randomBytes(24).toString('hex')}`),
        },
        PaymentGatewayLifecycle,
      ],
      exports: [PAYMENT_GATEWAY],
    };
  }
}
