import type { FastifyInstance } from 'fastify';
import type {
  AcceptContractBody,
  ContractParams,
  GenerateContractBody,
  LeadParams,
} from '../../../schemas/generated/types';
import { errorResponses, ok, ref } from '../responses';
import { userOf } from '../signed-in';

const BASE = '/hms_ms/api/v1/onboard/leads/:property_unique_id/contract';

/**
 * The terms-of-service task (SPEC §2 'terms of service v2', §3 termsOfServiceInfo and finalContractInfo,
 * §5 'Contract consent checkbox required'): the commercial terms, the contract PDF generated on the server,
 * its download and its acceptance. Every route needs a session and only sees the signed-in user's leads:
 * another user's property_unique_id answers 404 ONB_LEAD_NOT_FOUND.
 */
export default async function contractRoutes(app: FastifyInstance) {
  const common = {
    tags: ['contract'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };

  app.get<{ Params: LeadParams }>(
    BASE,
    {
      schema: {
        ...common,
        operationId: 'getTermsOfService',
        summary: 'The commercial terms offered, the latest contract and its acceptance',
        params: ref('api/lead-params.schema.json'),
        response: { 200: ok(ref('api/terms-of-service.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await app.contracts.info(userOf(request).id, request.params.property_unique_id);
      reply.header('cache-control', 'no-store');
      return { success: true, data };
    },
  );

  app.post<{ Params: LeadParams; Body: GenerateContractBody }>(
    BASE,
    {
      schema: {
        ...common,
        operationId: 'generateContract',
        summary: "Generate the contract PDF from the property's details and the commercial terms",
        description:
          "Body {}. Makes a PDF in the language of the request (httpxoyolang; a contract in another language is a new revision), from basic info, the address, the room categories, the owner's name and PAN (kyc section) and the commercial terms of bff/screens/data/commercial-terms.json, stores it with the SHA-256 of its bytes and answers the terms of service with final_contract_info. 201: a new contract (revision +1; an earlier acceptance stops completing the task); 200: the latest contract, made from the same details and terms. Takes well under a minute (SPEC §1). 400 ONB_CONTRACT_DETAILS_MISSING until basic info and the address are completed.",
        params: ref('api/lead-params.schema.json'),
        body: ref('api/generate-contract.schema.json'),
        response: {
          200: ok(ref('api/terms-of-service.schema.json'), 'The latest contract, still current'),
          201: ok(ref('api/terms-of-service.schema.json'), 'A new contract'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      const started = Date.now();
      const { result, created } = await app.contracts.generate(user.id, id, request.locale);
      request.log.info(
        {
          userId: user.id,
          propertyUniqueId: id,
          contractId: result.final_contract_info?.contract_id,
          revision: result.final_contract_info?.revision,
          created,
          ms: Date.now() - started,
        },
        'contract generated',
      );
      reply.code(created ? 201 : 200).header('cache-control', 'no-store');
      return { success: true, data: result };
    },
  );

  app.get<{ Params: ContractParams }>(
    `${BASE}/:contract_id/file`,
    {
      schema: {
        ...common,
        operationId: 'getContractFile',
        summary: 'The contract PDF, for its owner only (attachment, never cached)',
        params: ref('api/contract-params.schema.json'),
        response: {
          200: {
            description: 'The PDF',
            content: {
              'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { property_unique_id: id, contract_id: contractId } = request.params;
      const { bytes, filename } = await app.contracts.file(userOf(request).id, id, contractId);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(bytes);
    },
  );

  app.post<{ Params: LeadParams; Body: AcceptContractBody }>(
    `${BASE}/accept`,
    {
      schema: {
        ...common,
        operationId: 'acceptContract',
        summary: 'Accept the contract with the consent checkbox; completes the terms-of-service task',
        description:
          "Body {contract_id, consent: true}. consent missing or not true: 400 ONB_CONTRACT_CONSENT_REQUIRED (field consent, SPEC §5 'Contract consent checkbox required'). A contract_id that is not the lead's: 404 ONB_CONTRACT_NOT_FOUND. Not the latest contract, or the details or terms changed since it was generated: 409 ONB_CONTRACT_OUTDATED (generate it again). Records who (user id), when, from where (client address, User-Agent) and which contract version and SHA-256 (final_contract_info), and completes the terms_of_service task. Accepting again answers the first acceptance unchanged.",
        params: ref('api/lead-params.schema.json'),
        body: ref('api/accept-contract.schema.json'),
        response: { 200: ok(ref('api/terms-of-service.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      const data = await app.contracts.accept(user.id, id, {
        contractId: request.body.contract_id,
        consent: request.body.consent,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      request.log.info(
        { userId: user.id, propertyUniqueId: id, contractId: request.body.contract_id },
        'contract accepted',
      );
      await app.analytics.record(request, 'contract_accepted', { property_unique_id: id });
      return { success: true, data };
    },
  );
}
