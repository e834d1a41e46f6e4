/**
 * The product's terms (CONVENTIONS 'the domain's words'): keys that name the same thing and must read the
 * same in every locale, so an owner meets one word for KYC, amenities, rooms, photos, … on the checklist,
 * the page title and elsewhere (issue 12 item 18). `same` lists keys (`<area>.<path>`) whose texts must be
 * equal in each locale; `differs` lists keys of other things that must not read like the term (a group
 * inside the amenities page must not carry the page's own name).
 */
export interface GlossaryTerm {
  same: readonly string[];
  differs?: readonly string[];
}

export const glossary: Readonly<Record<string, GlossaryTerm>> = {
  basic_info: { same: ['screens.task.tasks.basic_info.title', 'screens.task_details.basic_info.title'] },
  contact_info: {
    same: ['screens.task.tasks.contact_info.title', 'screens.task_details.contact_info.title'],
  },
  amenities: {
    same: [
      'screens.task.tasks.amenities.title',
      'screens.task_details.amenities.title',
      'screens.task_details.amenities.label',
    ],
    differs: [
      'screens.amenities.groups.essentials',
      'screens.amenities.groups.safety',
      'screens.amenities.groups.facilities',
    ],
  },
  rooms: {
    same: ['screens.task.tasks.room_categories.title', 'screens.task_details.room_categories.title'],
  },
  photos: { same: ['screens.task.tasks.images.title', 'screens.images.title'] },
  kyc: { same: ['screens.task.tasks.kyc.title', 'screens.kyc.title'] },
  terms_of_service: { same: ['screens.task.tasks.terms_of_service.title', 'screens.terms.title'] },
  commission: { same: ['screens.contract.labels.commission'] },
};
