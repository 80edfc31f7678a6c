// Shapes the page passes around, all derived from the generated client (nothing written by hand).
import type { Ok } from '../../client/index.ts';

export type PageInfo = Ok<'/api/v1/book/{slug}', 'get'>['page'];
export type PageService = PageInfo['services'][number];
export type Availability = Ok<'/api/v1/book/{slug}/availability', 'get'>;
export type Day = Availability['days'][number];
export type Slot = Day['slots'][number];
export type Hold = Ok<'/api/v1/book/{slug}/holds', 'post'>['hold'];
export type Confirmed = Ok<'/api/v1/book/{slug}/holds/{holdId}/confirm', 'post'>;
export type Managed = Ok<'/api/v1/book/{slug}/manage', 'get'>;
export type Appointment = Managed['appointment'];

/** What the customer picked, with the names the summary shows. */
export interface Choice {
  serviceId: string;
  variantId: string | null;
  addonIds: string[];
  unitId: string | null;
  label: string;
}

/** A held slot and when the page stops counting (hold_minutes from the moment the hold was answered). */
export interface Held {
  hold: Hold;
  choice: Choice;
  deadline: number;
}
