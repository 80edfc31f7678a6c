// First run and the demo: the one-time links printed on the terminal (never through the logger).
// Both open the console's accept page with the token in the fragment.
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/port.ts';
import { createSetupToken, INVITATION_HOURS, ownerInvitation } from './invitations/invitations.service.ts';
import { anyStaff, replaceInvitation } from './invitations/invitations.repository.ts';
import { newSecret } from './secrets.ts';

/** The console page a setup link opens: it asks for the first owner's email, name and password. */
export function setupUrl(config: Config, token: string): string {
  return `${config.bookingPage.publicUrl}/console/#/setup#token=${token}`;
}

/**
 * On a database with no staff account: a new one-time setup link (24 hours, single use; a newer one
 * replaces it) to create the first owner. Null once anyone has an account.
 */
export async function firstRunSetupLink(db: Database, config: Config, clock: Clock): Promise<string | null> {
  if (await anyStaff(db)) return null;
  return setupUrl(config, await createSetupToken(db, clock.now()));
}

/**
 * The demo's owner: the person and their owner membership at the store (created once), and a
 * one-time link (72 hours, single use) to the accept page, where they choose a password and are
 * signed in. The demo owner's password is cleared so the link always works.
 */
export async function demoOwnerLink(
  db: Database,
  config: Config,
  clock: Clock,
  input: { storeId: string; email: string; name: string },
): Promise<string> {
  const at = clock.now();
  const token = newSecret();
  await db.transaction(async (tx) => {
    const person = await tx.query<{ id: string }>(
      `INSERT INTO staff_people (email, name, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (lower(email)) DO UPDATE SET password_hash = NULL, updated_at = $3 RETURNING id`,
      [input.email, input.name, at],
    );
    await tx.query(
      `INSERT INTO staff_memberships (store_id, staff_id, role, permissions, created_at, updated_at)
       VALUES ($1, $2, 'owner', '{can_process_payments}', $3, $3)
       ON CONFLICT (store_id, staff_id) DO UPDATE SET role = 'owner', disabled = false, updated_at = $3`,
      [input.storeId, person.rows[0].id, at],
    );
    await replaceInvitation(
      tx,
      ownerInvitation({
        storeId: input.storeId,
        email: input.email,
        name: input.name,
        token,
        at,
        hours: INVITATION_HOURS,
      }),
    );
  });
  return `${config.bookingPage.publicUrl}/console/#/accept#token=${token}`;
}
