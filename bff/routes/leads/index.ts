import type { FastifyInstance } from 'fastify';
import type {
  CreateLeadBody,
  LeadParams,
  LeadSectionParams,
  SaveLeadSectionBody,
} from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import { errorResponses, ok, ref } from '../responses';
import { userOf } from '../signed-in';

const BASE = '/hms_ms/api/v1/onboard/leads';

/**
 * Leads and their checklist (SPEC §3 property / lead, §4 checklist; the shared context "lead contract").
 * Every route needs a session and only sees the signed-in user's leads: another user's
 * property_unique_id answers 404 ONB_LEAD_NOT_FOUND, never the data.
 */
export default async function leadRoutes(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const common = {
    tags: ['leads'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };

  app.post<{ Body: CreateLeadBody }>(
    BASE,
    {
      schema: {
        ...common,
        operationId: 'createLead',
        summary: 'Add a property: a new lead with its title, type and sub type',
        description:
          "The title is also stored as basic_info.data.title (version 1). Unknown property_type, or a property_sub_type outside the type's group: 400 'Invalid Input' with field. A sub type not onboarded in the account's country (serviceability configuration): 422 ONB_UNSUPPORTED_PROPERTY, and the lead is recorded as a cold lead UNSUPPORTED_PROPERTY (SPEC §4).",
        body: ref('api/create-lead.schema.json'),
        response: { 201: ok(ref('api/lead-result.schema.json'), 'Created'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const lead = await app.leads.create(user.id, request.body, user.country_code || config.defaultCountry);
      // The campaign of the visit that created the lead (issue 15 item 6).
      if (request.utm)
        await app.db
          .updateTable('leads')
          .set({ utm: JSON.stringify(request.utm) })
          .where('id', '=', lead.lead_id)
          .execute();
      request.log.info({ userId: user.id, propertyUniqueId: lead.property_unique_id }, 'lead created');
      await app.analytics.record(request, 'lead_created', {
        property_unique_id: lead.property_unique_id,
        property_type: request.body.property_type,
        property_sub_type: request.body.property_sub_type,
      });
      reply.code(201);
      return { success: true, data: { lead } };
    },
  );

  app.get(
    BASE,
    {
      schema: {
        ...common,
        operationId: 'listLeads',
        summary: "The signed-in user's leads, newest first",
        response: { 200: ok(ref('api/lead-list.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true, data: { leads: await app.leads.list(userOf(request).id) } };
    },
  );

  app.get<{ Params: LeadParams }>(
    `${BASE}/:property_unique_id`,
    {
      schema: {
        ...common,
        operationId: 'getLead',
        summary: 'One lead with its sections and checklist',
        params: ref('api/lead-params.schema.json'),
        response: { 200: ok(ref('api/lead-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const lead = await app.leads.find(userOf(request).id, request.params.property_unique_id);
      if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
      reply.header('cache-control', 'no-store');
      return { success: true, data: { lead } };
    },
  );

  app.delete<{ Params: LeadParams }>(
    `${BASE}/:property_unique_id`,
    {
      schema: {
        ...common,
        operationId: 'discardLead',
        summary: "Discard a new lead that duplicates the owner's other property ('Is this your property?')",
        description:
          'SPEC §2 OTA match: when the owner answers that a matching property is theirs, the new lead is discarded and no longer appears anywhere. Only while no task but the address is completed: otherwise 409 ONB_LEAD_LOCKED.',
        params: ref('api/lead-params.schema.json'),
        response: { 200: ok(ref('api/discard-lead-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      await app.leads.discard(user.id, id);
      request.log.info({ userId: user.id, propertyUniqueId: id }, 'lead discarded');
      return { success: true, data: { property_unique_id: id, status: 'DISCARDED' as const } };
    },
  );

  app.get<{ Params: LeadParams }>(
    `${BASE}/:property_unique_id/checklist`,
    {
      schema: {
        ...common,
        operationId: 'getChecklist',
        summary: "A lead's checklist: tasks, completionPercentage, section_status",
        params: ref('api/lead-params.schema.json'),
        response: { 200: ok(ref('api/checklist.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const lead = await app.leads.find(userOf(request).id, request.params.property_unique_id);
      if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
      reply.header('cache-control', 'no-store');
      return { success: true, data: lead.checklist };
    },
  );

  app.put<{ Params: LeadSectionParams; Body: SaveLeadSectionBody }>(
    `${BASE}/:property_unique_id/sections/:section`,
    {
      schema: {
        ...common,
        operationId: 'saveLeadSection',
        summary: 'Save a section of a lead as a draft or finally, with its version',
        description:
          "Sections: basic_info, address, contact_info, amenities, room_categories, kyc (its final save also needs the KYC evidence, see saveKycDetails). data replaces the section's data and is checked against schemas/api/sections/<section>.schema.json (400 'Invalid Input', field = the property; an amenity outside bff/screens/data/amenities.json too). Phone numbers are stored in E.164 (invalid: 400 'Please enter the correct phone number'); e-mails trimmed (invalid: 400 'Please enter the correct email ID'); a draft keeps either as typed. A final save (draft false) needs the section's required fields (400 'This field is required', field) and its final rules (every mandatory amenity: 400 ONB_MANDATORY_AMENITIES; room counts adding up to basic info's total_rooms: 400 ONB_ROOM_COUNT_MISMATCH, or ONB_BASIC_INFO_FIRST without it; the address: the account's country, 400 ONB_COUNTRY_LOCKED; a served city, 422 'We are not operational in this area. Please select correct location.' and the lead becomes a cold lead NOT_SERVICEABLE; a pin within LOCATION_CONFIRM_DISTANCE_M of the typed city unless location_confirmed, 409 ONB_LOCATION_DIFFERS; no similar name within OTA_MATCH_RADIUS_M unless not_duplicate_confirmed, 409 ONB_POSSIBLE_DUPLICATE, or ONB_POSSIBLE_DUPLICATE_OWN when one is the owner's own, with error.details.matches), and completes it. A version other than the stored one: 409 ONB_VERSION_CONFLICT, nothing saved. Unknown section: 404 ONB_SECTION_NOT_FOUND.",
        params: ref('api/lead-section-params.schema.json'),
        body: ref('api/save-lead-section.schema.json'),
        response: { 200: ok(ref('api/save-lead-section-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const { property_unique_id: id, section } = request.params;
      const saved = await app.leads.saveSection(
        user.id,
        id,
        section,
        request.body,
        user.country_code || config.defaultCountry,
      );
      request.log.info(
        {
          userId: user.id,
          propertyUniqueId: id,
          section,
          version: saved.section.version,
          draft: request.body.draft,
        },
        'lead section saved',
      );
      if (!request.body.draft) {
        await app.analytics.record(request, 'checklist_task_submitted', {
          property_unique_id: id,
          task: section,
          completed: saved.section.completed,
        });
      }
      return { success: true, data: saved };
    },
  );
}
