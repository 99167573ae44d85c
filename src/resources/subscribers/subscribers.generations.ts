/** How the subscriber routes differ between generations. */
export interface SubscribersRules {
  /** Whether the server has /v2/subscribers: upstream added it in 2025. */
  v2: boolean
}

export const subscribers2024: SubscribersRules = { v2: false }

export const subscribers2026: SubscribersRules = { v2: true }
