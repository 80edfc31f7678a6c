// What the console offers each role (a hint for what to show; the API decides, and a refusal shows
// its message). Mirrors src/staff/roles.ts: a merchant token (embedded console) shows everything it
// always did, since it acts as its scopes say.
import type { Role, Session } from './session.ts';

type Screen =
  | '/diary'
  | '/queue'
  | '/classes'
  | '/customers'
  | '/catalogue'
  | '/import'
  | '/reports'
  | '/settings'
  | '/staff'
  | '/account'
  | '/mailbox';

// Owners and managers see every screen (managers may do all but an owner's few writes).
const EVERY_SCREEN: readonly Screen[] = [
  '/diary',
  '/queue',
  '/classes',
  '/customers',
  '/catalogue',
  '/import',
  '/reports',
  '/settings',
  '/staff',
  '/account',
  '/mailbox',
];

const SCREENS: Record<Role, readonly Screen[]> = {
  owner: EVERY_SCREEN,
  manager: EVERY_SCREEN,
  front_desk: ['/diary', '/queue', '/classes', '/customers', '/catalogue', '/settings', '/account'],
  staff: ['/diary', '/classes', '/account'],
};

// A merchant token is no staff member: no Staff screen, no account of its own.
const TOKEN_SCREENS = EVERY_SCREEN.filter((screen) => screen !== '/staff' && screen !== '/account');

export function mayOpen(session: Session, screen: string): boolean {
  // A merchant token shows Classes only with the classes entitlement (a staff session has them all).
  if (screen === '/classes' && session.kind === 'token' && !session.entitlements.includes('classes')) return false;
  const list = session.role ? SCREENS[session.role] : TOKEN_SCREENS;
  return list.some((s) => s === screen);
}

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  manager: 'Manager',
  front_desk: 'Front desk',
  staff: 'Staff',
};
const RANK: Record<Role, number> = { owner: 4, manager: 3, front_desk: 2, staff: 1 };

/** The roles this person may give: nobody raises anyone above their own role; only an owner makes an owner. */
export function assignableRoles(session: Session): Role[] {
  const mine = session.role ? RANK[session.role] : 0;
  return (Object.keys(RANK) as Role[]).filter((r) => RANK[r] <= mine && (r !== 'owner' || session.role === 'owner'));
}

/** Whether this person may change another member at all (a manager leaves owners alone). */
export function mayManage(session: Session, other: Role): boolean {
  if (session.role === 'owner') return true;
  return session.role === 'manager' && other !== 'owner';
}
