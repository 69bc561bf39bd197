import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { pickChatModel } from './model/chat-model';

/** Starts the shop on `PORT` (default 3000), on a real model when a provider key is set, else offline. */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port);
  console.log(`Shop assistant (${pickChatModel().description}) on http://localhost:${port}: POST /chat, POST /chat/confirm`);
}

void bootstrap();
