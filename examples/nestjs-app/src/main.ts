import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

/** Starts the shop on `PORT` (default 3000). Offline unless `OPENAI_API_KEY` is set. */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port);
  console.log(`Shop assistant on http://localhost:${port}  (POST /chat, POST /chat/confirm)`);
}

void bootstrap();
