// The shop's window on its booking page (issue 41): what the page and its server-rendered HTML show
// about the shop besides its services: where it is, how to call it, its website, a short text, a
// map link and the week's opening hours.
import { Type, type Static } from 'typebox';
import { NullableString } from '../platform/http/schemas.ts';

export const OpeningHours = Type.Object({
  weekday: Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday .. 6 = Saturday' }),
  open: Type.String({ description: 'HH:MM, store-local' }),
  close: Type.String({ description: 'HH:MM, store-local (24:00 = midnight)' }),
});

export const ShopWindow = Type.Object({
  address: NullableString,
  phone: Type.Union([Type.String(), Type.Null()], { description: 'E.164 (+44...), for tel: links' }),
  phone_display: Type.Union([Type.String(), Type.Null()], {
    description: 'the phone as people read it in the UK (0113 496 0000)',
  }),
  website: Type.Union([Type.String(), Type.Null()], { description: 'https only' }),
  about: NullableString,
  map_url: Type.Union([Type.String(), Type.Null()], {
    description: 'an OpenStreetMap search for the address; null without one',
  }),
  opening_hours: Type.Array(OpeningHours, {
    description:
      'the week, Monday first, open days only: from the earliest opening to the latest close among the staff bookable online',
  }),
});
export type ShopWindow = Static<typeof ShopWindow>;
