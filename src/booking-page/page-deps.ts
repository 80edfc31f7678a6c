// What the booking page's services share, built once when its routes are registered: the database
// and clock, the derived keys, the challenge store, the page's own tokens, the sign-in parts, and the
// manage link maker (also used by the messages planner for the confirmation email).
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/port.ts';
import type { TokenService } from '../platform/auth/tokens.ts';
import { challenges, type Challenges } from './challenge.ts';
import { derivedKey } from '../platform/auth/page-keys.ts';
import { pageTokens, type PageTokens } from './page-tokens.ts';
import { memoryBudget, redisBudget, type Budget } from '../customers/sign-in/send-limits.ts';
import { codeMailer } from '../customers/sign-in/code-mail.ts';
import { codeTexter } from '../customers/sign-in/code-text.ts';
import type { SignInDeps } from '../customers/sign-in/sign-in.service.ts';
import { deliveryMode } from '../notifications/delivery/delivery-mode.ts';

export interface ManageLinkInput {
  appointmentId: string;
  storeId: string;
  slug: string;
  endsAt: string;
}

export interface PageDeps {
  db: Database;
  clock: Clock;
  config: Config;
  addressKey: Buffer;
  challenges: Challenges;
  pageTokens: PageTokens;
  signIn: SignInDeps;
  manageUrl(input: ManageLinkInput): Promise<string>;
}

/** The manage page's address with its token in the fragment (never sent to a server, never logged). */
export function manageLinks(config: Config, clock: Clock) {
  const tokens = pageTokens(config.authSecret, clock);
  return async (input: ManageLinkInput) => {
    const token = await tokens.manageLink({ appointmentId: input.appointmentId, storeId: input.storeId }, input.endsAt);
    return `${config.bookingPage.publicUrl}/book/${input.slug}/manage#token=${token}`;
  };
}

/** Falls back to this process's budget when Redis cannot answer (serving beats refusing everyone). */
function resilient(shared: Budget, local: Budget): Budget {
  return {
    take: (key, max, windowMs, nowMs) =>
      shared.take(key, max, windowMs, nowMs).catch(() => local.take(key, max, windowMs, nowMs)),
  };
}

export function pageDeps(app: FastifyInstance, redis: Redis | null): PageDeps {
  const { config, db, clock, tokens } = app.deps as {
    config: Config;
    db: Database;
    clock: Clock;
    tokens: TokenService;
  };
  const budget = redis ? resilient(redisBudget(redis), memoryBudget()) : memoryBudget();
  const mailer = codeMailer(config, db, app.log);
  app.addHook('onClose', async () => mailer.close());
  return {
    db,
    clock,
    config,
    addressKey: derivedKey(config.authSecret, 'client-address'),
    challenges: challenges(derivedKey(config.authSecret, 'altcha').toString('hex'), db, clock, redis),
    pageTokens: pageTokens(config.authSecret, clock),
    signIn: {
      db,
      clock,
      tokens,
      budget,
      mailer,
      texter: codeTexter(config.messages, app.log),
      signInMode: deliveryMode(config).signIn,
      emailKey: derivedKey(config.authSecret, 'email'),
      codeKey: derivedKey(config.authSecret, 'email-code'),
    },
    manageUrl: manageLinks(config, clock),
  };
}
