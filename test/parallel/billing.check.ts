import { isolatedSuite } from './suite.js'

isolatedSuite('billing', 'orders')
