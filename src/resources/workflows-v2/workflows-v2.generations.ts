import { unauthorized, type ApiError } from '../../errors.js'

/** How /v2/workflows differs between generations. */
export interface WorkflowsV2Rules {
  /**
   * The routes' answer to the `ApiKey` scheme when the controller is not ExternalApiAccessible
   * (the 2024-10 server kept it for the dashboard's JWTs): upstream's guard refuses before it
   * looks the key up.
   */
  apiKeyRefusal?: () => ApiError
  /** Whether PATCH /v2/workflows/{workflowId} exists (elsewhere Express's 404 answers). */
  patch: boolean
}

/** October 2024: POST, GET, PUT and DELETE exist for the dashboard only; there is no PATCH. */
export const workflowsV2_2024: WorkflowsV2Rules = {
  apiKeyRefusal: () => unauthorized('API endpoint not available'),
  patch: false,
}

/** Since late 2024 the routes take API keys, and `@novu/api` calls them. */
export const workflowsV2_2026: WorkflowsV2Rules = { patch: true }
