import { isolatedSuite } from './suite.js'

isolatedSuite('orders', 'billing')
