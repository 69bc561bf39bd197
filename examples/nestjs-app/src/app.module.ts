import { Module } from '@nestjs/common';
import { InMemoryCredentialService, type Model } from '@toolsmith/core';
import { ToolsmithModule } from '@toolsmith/nestjs';
import { AuditModule } from './audit/audit.module';
import { AuditPlugin } from './audit/audit.plugin';
import { ChatController } from './chat/chat.controller';
import { CHAT_MODEL, ChatModelModule } from './model/chat-model';
import { OrdersModule } from './orders/orders.module';
import { OrdersTools } from './orders/orders.tools';

/** The shop: the orders feature, the chat API, and Toolsmith wiring them to a model. */
@Module({
  imports: [
    OrdersModule,
    ToolsmithModule.forRootAsync({
      imports: [ChatModelModule, AuditModule],
      inject: [CHAT_MODEL],
      useFactory: (model: Model) => ({
        appName: 'shop',
        agent: {
          name: 'shop_assistant',
          model,
          instruction:
            "You help customers of a tea shop with their orders. Use the orders tools; never guess an order's status. " +
            'Amounts are in cents; show them in euros.',
          tools: [OrdersTools],
        },
        // Where tools that call protected APIs keep users' credentials (see docs/auth.md and POST /chat/credential).
        runner: { credentialService: new InMemoryCredentialService() },
      }),
      plugins: [AuditPlugin],
    }),
  ],
  controllers: [ChatController],
})
export class AppModule {}
