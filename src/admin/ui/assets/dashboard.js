// The novu-mock dashboard: a plain module, no framework, no build step. Every text goes in as
// textContent (never innerHTML): the mock's data cannot inject markup into the page.

const PAGE_SIZE = 50
const JOURNAL_STEP = 100

/** An element with attributes (`on*` as listeners) and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value)
    else if (name === 'className') el.className = value
    else el.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue
    el.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return el
}

async function api(path, init = {}) {
  const res = await fetch(path, {
    ...init,
    headers: { ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
  })
  const text = await res.text()
  const body = text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text
  if (!res.ok) {
    const message = body && typeof body === 'object' ? [body.message].flat().join('; ') : text
    throw new Error(`${res.status}: ${message}`)
  }
  return body
}

const time = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '')
/** A row's time: the clock time, the whole timestamp on hover. */
const timeCell = (iso) =>
  h('td', { className: 'nowrap', title: time(iso) }, iso ? iso.slice(11, 19) : '')
const pretty = (value) => JSON.stringify(value, null, 2)
const debounce = (fn, ms) => {
  let timer
  return (...args) => {
    clearTimeout(timer)
    timer = setTimeout(() => fn(...args), ms)
  }
}
const query = (params) => {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v)
  return q.toString()
}
const cell = (text, className) => h('td', { className, title: text }, text)
const empty = (cols, text) => h('tr', {}, h('td', { colspan: cols, className: 'empty' }, text))
const field = (label, input) => h('label', { className: 'field' }, h('span', {}, label), input)
const select = (name, options, value) =>
  h(
    'select',
    { name },
    options.map(([v, label]) => h('option', { value: v, selected: v === value }, label))
  )
/** The × that hides a detail pane. */
const closeButton = (pane) =>
  h(
    'button',
    {
      type: 'button',
      className: 'close',
      onclick: () => (pane.hidden = true),
      'aria-label': 'Close',
    },
    '×'
  )

/** A table with its headings over `rows` (a tbody the view fills). */
const table = (id, headings, rows) =>
  h(
    'table',
    { id },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headings.map((t) => h('th', {}, t))
      )
    ),
    rows
  )

/** A view's frame: its title and filters over a list, with a detail pane beside it. */
const splitView = (root, title, form, list, detail) =>
  root.replaceChildren(
    h('h2', {}, title),
    form,
    h('div', { className: 'split' }, h('section', { className: 'list' }, ...list), detail)
  )

/** Loads now, then again (debounced) on the control-plane events named, while `when` holds. */
function liveView(load, ms, types, when = () => true) {
  const refresh = debounce(load, ms)
  load()
  return { onEvent: (type) => types.includes(type) && when() && refresh() }
}

function showError(where, error) {
  where.replaceChildren(h('p', { className: 'error' }, String(error.message ?? error)))
}

/* ------------------------------------------------------------------ login */

function setupLogin(form) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const token = new FormData(form).get('token')
    const error = document.getElementById('login-error')
    try {
      await api('/__admin/ui/login', { method: 'POST', body: JSON.stringify({ token }) })
      location.reload()
    } catch (e) {
      error.hidden = false
      error.textContent = String(e.message)
    }
  })
}

/* ------------------------------------------------------------------ outbox */

function messageSummary(m) {
  const r = m.rendered ?? {}
  if (r.channel === 'email') return r.subject
  if (r.channel === 'push') return `${r.title} · ${r.body}`
  return r.text ?? r.content ?? ''
}

function outboxView(root) {
  const state = { page: 0, selected: undefined, environments: [] }
  const form = h(
    'form',
    { className: 'filters', onsubmit: (e) => e.preventDefault() },
    field('Environment', select('environmentId', [['', 'all keys']])),
    field(
      'Channel',
      select('channel', [
        ['', 'any'],
        ...['email', 'sms', 'in_app', 'push', 'chat'].map((c) => [c, c]),
      ])
    ),
    field('Subscriber', h('input', { name: 'subscriberId', placeholder: 'subscriberId' })),
    field('Workflow', h('input', { name: 'workflow', placeholder: 'trigger identifier' })),
    field('Transaction', h('input', { name: 'transactionId', placeholder: 'transactionId' })),
    field('Search', h('input', { name: 'q', type: 'search', placeholder: 'subject or body' }))
  )
  const rows = h('tbody')
  const pager = h('div', { className: 'pager' })
  const detail = h('section', { className: 'detail', hidden: true })
  const list = h(
    'section',
    { className: 'list' },
    table(
      'outbox-table',
      [
        'Time',
        'Channel',
        'Subscriber',
        'Workflow',
        'Subject / text',
        'Transaction',
        'Status',
        'Key',
      ],
      rows
    ),
    pager
  )
  root.replaceChildren(h('h2', {}, 'Outbox'), form, h('div', { className: 'split' }, list, detail))

  const filters = () => Object.fromEntries(new FormData(form))

  async function load() {
    try {
      const [envs, page] = await Promise.all([
        api('/__admin/ui/environments'),
        api(`/__admin/messages?${query({ ...filters(), limit: PAGE_SIZE, page: state.page })}`),
      ])
      fillEnvironments(envs.data)
      render(page)
    } catch (e) {
      showError(pager, e)
    }
  }

  function fillEnvironments(envs) {
    const input = form.elements.environmentId
    const keep = input.value
    const known = envs.map((e) => `${e.environmentId}:${e.apiKey}`).join()
    if (known === state.environments.join()) return
    state.environments = envs.map((e) => `${e.environmentId}:${e.apiKey}`)
    input.replaceChildren(
      h('option', { value: '' }, 'all keys'),
      envs.map((e) =>
        h('option', { value: e.environmentId, selected: e.environmentId === keep }, e.apiKey)
      )
    )
  }

  function render(page) {
    rows.replaceChildren(
      ...(page.data.length
        ? page.data.map((m) =>
            h(
              'tr',
              {
                className: m._id === state.selected ? 'selected' : '',
                'data-id': m._id,
                tabindex: 0,
                onclick: () => open(m),
                onkeydown: (e) => e.key === 'Enter' && open(m),
              },
              timeCell(m.createdAt),
              h('td', {}, h('span', { className: `badge ${m.channel}` }, m.channel)),
              cell(m.subscriber?.subscriberId ?? ''),
              cell(m.templateIdentifier),
              cell(messageSummary(m), 'wide'),
              cell(m.transactionId, 'mono'),
              cell(m.status),
              cell(m.apiKey, 'mono')
            )
          )
        : [empty(8, 'No messages yet: trigger a workflow and they appear here as they are sent.')])
    )
    const from = page.totalCount ? page.page * page.pageSize + 1 : 0
    const to = page.page * page.pageSize + page.data.length
    pager.replaceChildren(
      h('button', { type: 'button', disabled: page.page === 0, onclick: () => go(-1) }, '‹ Newer'),
      h('span', {}, `${from}–${to} of ${page.totalCount}`),
      h('button', { type: 'button', disabled: !page.hasMore, onclick: () => go(1) }, 'Older ›')
    )
  }

  function go(step) {
    state.page = Math.max(0, state.page + step)
    load()
  }

  function open(m) {
    state.selected = m._id
    for (const row of rows.children) row.classList.toggle('selected', row.dataset.id === m._id)
    detail.hidden = false
    const r = m.rendered ?? {}
    const head = h(
      'dl',
      {},
      ...[
        ['Channel', m.channel],
        ['Subject', r.subject],
        ['To', m.email ?? m.phone ?? m.subscriber?.subscriberId],
        ['From (provider)', m.providerId],
        ['Workflow', m.templateIdentifier],
        ['Step', m.stepId ?? m._messageTemplateId],
        ['Transaction', m.transactionId],
        ['Status', m.status],
        ['Created', time(m.createdAt)],
        ['Key', m.apiKey],
      ]
        .filter(([, v]) => v !== undefined && v !== '')
        .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])
    )
    const tabs = []
    if (r.channel === 'email') {
      tabs.push([
        'Preview',
        () =>
          h(
            'div',
            {},
            h(
              'p',
              { className: 'hint' },
              'Scripts and remote loads (images, fonts, styles) are blocked.'
            ),
            h('iframe', {
              className: 'preview',
              title: 'Email preview (sandboxed)',
              sandbox: '',
              referrerpolicy: 'no-referrer',
              src: `/__admin/ui/preview/${m._environmentId}/${m._id}`,
            })
          ),
      ])
      tabs.push(['Source', () => h('pre', {}, r.html)])
      tabs.push(['Text', () => h('pre', {}, r.text)])
    } else tabs.push(['Rendered', () => h('pre', {}, pretty(r))])
    tabs.push(['Payload', () => h('pre', {}, pretty(m.payload))])
    tabs.push(['Message', () => h('pre', {}, pretty(m))])
    const body = h('div', { className: 'tab-body' })
    const bar = h(
      'div',
      { className: 'tabs', role: 'tablist' },
      tabs.map(([name, make], i) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            'aria-selected': i === 0,
            onclick: (e) => {
              for (const b of bar.children) b.setAttribute('aria-selected', String(b === e.target))
              body.replaceChildren(make())
            },
          },
          name
        )
      )
    )
    body.replaceChildren(tabs[0][1]())
    detail.replaceChildren(
      closeButton(detail),
      h('h3', {}, messageSummary(m) || m.channel),
      head,
      bar,
      body
    )
  }

  form.addEventListener(
    'input',
    debounce(() => ((state.page = 0), load()), 200)
  )
  return liveView(load, 250, ['message', 'reset'], () => state.page === 0)
}

/* ------------------------------------------------------------------ journal */

function journalView(root) {
  const state = { limit: JOURNAL_STEP, selected: undefined }
  const form = h(
    'form',
    { className: 'filters', onsubmit: (e) => e.preventDefault() },
    field(
      'Method',
      select('method', [
        ['', 'any'],
        ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, m]),
      ])
    ),
    field('Path', h('input', { name: 'path', placeholder: '/v1/topics* or /v1/workflows/:id' })),
    field('Status', h('input', { name: 'status', placeholder: '404 or 5xx', size: 6 })),
    field(
      'Matched',
      select('matched', [
        ['', 'any'],
        ['true', 'a route'],
        ['false', 'no route'],
      ])
    ),
    h(
      'a',
      { className: 'button', id: 'export', download: 'replay.yaml' },
      'Export as replay script'
    )
  )
  const rows = h('tbody')
  const more = h('div', { className: 'pager' })
  const detail = h('section', { className: 'detail', hidden: true })
  splitView(
    root,
    'Journal',
    form,
    [
      table('journal-table', ['Time', 'Method', 'Path', 'Status', 'Key', 'Rule', 'Latency'], rows),
      more,
    ],
    detail
  )
  const filters = () => Object.fromEntries(new FormData(form))

  async function load() {
    form.querySelector('#export').href =
      `/__admin/requests/export?${query({ ...filters(), format: 'yaml' })}`
    try {
      const page = await api(`/__admin/requests?${query({ ...filters(), limit: state.limit })}`)
      rows.replaceChildren(
        ...(page.data.length
          ? page.data.map((e) =>
              h(
                'tr',
                {
                  'data-id': e.id,
                  tabindex: 0,
                  className: e.id === state.selected ? 'selected' : '',
                  onclick: () => open(e),
                },
                timeCell(e.at),
                cell(e.method, 'mono'),
                cell(
                  e.path + (Object.keys(e.query ?? {}).length ? `?${query(e.query)}` : ''),
                  'mono wide'
                ),
                h('td', {}, h('span', { className: `status s${String(e.status)[0]}` }, e.status)),
                cell(e.apiKey ?? '', 'mono'),
                cell(e.rule ? `${e.rule}${e.fault ? ` (${e.fault})` : ''}` : ''),
                cell(`${e.durationMs} ms`, 'nowrap')
              )
            )
          : [empty(7, 'No requests yet: call the mock and they appear here as they arrive.')])
      )
      more.replaceChildren(
        h(
          'span',
          {},
          `${page.data.length} of ${page.totalCount} (the journal keeps ${page.capacity})`
        ),
        h(
          'button',
          {
            type: 'button',
            disabled: page.data.length >= page.totalCount,
            onclick: () => ((state.limit += JOURNAL_STEP), load()),
          },
          'Show more'
        )
      )
    } catch (e) {
      showError(more, e)
    }
  }

  function open(e) {
    state.selected = e.id
    for (const row of rows.children)
      row.classList.toggle('selected', row.dataset.id === String(e.id))
    detail.hidden = false
    const headers = h(
      'table',
      { className: 'kv' },
      Object.entries(e.headers ?? {}).map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v)))
    )
    detail.replaceChildren(
      ...[
        closeButton(detail),
        h('h3', {}, `${e.method} ${e.path} → ${e.status}`),
        h('h4', {}, 'Request headers'),
        headers,
        h('h4', {}, 'Query'),
        h('pre', {}, pretty(e.query ?? {})),
        h('h4', {}, `Request body${e.bodyTruncated ? ' (first 2 kB)' : ''}`),
        h('pre', {}, e.body ?? '(none)'),
        e.outcome
          ? [h('h4', {}, `Chaos rule ${e.rule} answered`), h('pre', {}, pretty(e.outcome))]
          : [],
        e.closestRoutes
          ? [h('h4', {}, 'No route matched; the closest'), h('pre', {}, e.closestRoutes.join('\n'))]
          : [],
        e.responseIds
          ? [h('h4', {}, 'Ids in the answer'), h('pre', {}, pretty(e.responseIds))]
          : [],
        h('h4', {}, 'Entry'),
        h('pre', {}, pretty(e)),
      ].flat()
    )
  }

  form.addEventListener('input', debounce(load, 200))
  return liveView(load, 150, ['request', 'reset'])
}

/* ------------------------------------------------------------------ environments */

function environmentsView(root) {
  const rows = h('tbody')
  const note = h('p', { className: 'note' })
  root.replaceChildren(
    h('h2', {}, 'Environments'),
    h(
      'p',
      { className: 'hint' },
      'One environment per API key, built on its first request. Keys show redacted.'
    ),
    h(
      'section',
      { className: 'list' },
      table(
        'environments-table',
        [
          'Key',
          'Environment',
          'Role',
          'Generation',
          'Clock',
          'Workflows',
          'Subscribers',
          'Topics',
          'Messages',
          'Waiting',
          '',
        ],
        rows
      )
    ),
    note
  )

  async function load() {
    try {
      const { data } = await api('/__admin/ui/environments')
      rows.replaceChildren(
        ...(data.length
          ? data.map((e) =>
              h(
                'tr',
                {},
                cell(e.apiKey, 'mono'),
                cell(e.environmentId, 'mono'),
                cell(e.role),
                cell(e.generation),
                cell(`${time(e.clock.now)}${e.clock.fixed ? ' (fixed)' : ''}`, 'nowrap'),
                cell(e.counts.workflows),
                cell(e.counts.subscribers),
                cell(e.counts.topics),
                cell(e.counts.messages),
                cell(e.pending),
                h('td', { className: 'actions' }, actions(e))
              )
            )
          : [empty(11, 'No environment yet: the first request with an API key builds its own.')])
      )
    } catch (e) {
      showError(note, e)
    }
  }

  function actions(e) {
    const file = h('input', { type: 'file', accept: 'application/json', hidden: true })
    file.addEventListener('change', async () => {
      try {
        const text = await file.files[0].text()
        await api(`/__admin/ui/environments/${e.environmentId}/state`, {
          method: 'PUT',
          body: text,
        })
        note.textContent = `Imported the state into ${e.apiKey}.`
        load()
      } catch (error) {
        showError(note, error)
      }
    })
    return [
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            if (
              !confirm(`Reset ${e.apiKey} to the scenario? Its data, rules and journal entries go.`)
            )
              return
            try {
              await api(`/__admin/ui/environments/${e.environmentId}/reset`, { method: 'POST' })
              note.textContent = `Reset ${e.apiKey}.`
              load()
            } catch (error) {
              showError(note, error)
            }
          },
        },
        'Reset'
      ),
      h(
        'a',
        {
          className: 'button',
          href: `/__admin/ui/environments/${e.environmentId}/state`,
          download: `state-${e.apiKey}.json`,
        },
        'Export'
      ),
      h('button', { type: 'button', onclick: () => file.click() }, 'Import…'),
      file,
    ]
  }

  return liveView(load, 300, ['reset', 'message'])
}

/* ------------------------------------------------------------------ chaos rules */

function ruleOf(form) {
  const v = Object.fromEntries(new FormData(form))
  const rule = { match: {} }
  if (v.method) rule.match.method = v.method
  if (v.path) rule.match.path = v.path
  if (v.network) rule.fault = { network: v.network }
  else if (v.status) rule.fault = { status: Number(v.status) }
  if (v.delay) rule.delay = Number(v.delay)
  if (v.times) rule.times = Number(v.times)
  if (v.probability) rule.probability = Number(v.probability)
  return rule
}

const outcomeOf = (r) =>
  [
    r.fault ? (r.fault.network ? `network ${r.fault.network}` : `status ${r.fault.status}`) : '',
    r.delay !== undefined
      ? `delay ${typeof r.delay === 'number' ? `${r.delay} ms` : JSON.stringify(r.delay)}`
      : '',
    r.sequence ? `sequence of ${r.sequence.length}` : '',
    r.probability !== undefined ? `p=${r.probability}` : '',
  ]
    .filter(Boolean)
    .join(', ')

function rulesView(root) {
  const rows = h('tbody')
  const note = h('p', { className: 'note' })
  const scenario = h('p', { className: 'hint' })
  const json = h('textarea', {
    name: 'json',
    rows: 8,
    spellcheck: 'false',
    'aria-label': 'Rule JSON',
  })
  const form = h(
    'form',
    { className: 'rule-form card', id: 'rule-form' },
    h('h3', {}, 'Add a rule'),
    h(
      'div',
      { className: 'filters' },
      field(
        'Method',
        select('method', [
          ['', 'any'],
          ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, m]),
        ])
      ),
      field(
        'Path',
        h('input', { name: 'path', placeholder: '/v1/topics or /v1/*', value: '/v1/*' })
      ),
      field(
        'Status',
        h('input', {
          name: 'status',
          type: 'number',
          min: 100,
          max: 599,
          placeholder: '503',
          value: '503',
        })
      ),
      field(
        'Network fault',
        select('network', [
          ['', 'none'],
          ...['reset', 'empty', 'hang', 'malformed', 'slow-body'].map((n) => [n, n]),
        ])
      ),
      field('Delay (ms)', h('input', { name: 'delay', type: 'number', min: 0 })),
      field('Times', h('input', { name: 'times', type: 'number', min: 1, value: '1' })),
      field(
        'Probability',
        h('input', { name: 'probability', type: 'number', min: 0, max: 1, step: 0.05 })
      )
    ),
    field('The rule as POST /__admin/rules takes it (edit freely)', json),
    h('button', { type: 'submit' }, 'Add rule')
  )
  const sync = () => (json.value = pretty(ruleOf(form)))
  form.addEventListener('input', (e) => e.target !== json && sync())
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    try {
      const { data } = await api('/__admin/rules', { method: 'POST', body: json.value })
      note.textContent = `Added ${data.id}.`
      load()
    } catch (error) {
      showError(note, error)
    }
  })
  sync()
  root.replaceChildren(
    h('h2', {}, 'Chaos rules'),
    scenario,
    h(
      'section',
      { className: 'list' },
      h(
        'table',
        { id: 'rules-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Id', 'Source', 'Match', 'Outcome', 'Matched', 'Fired', 'Remaining', ''].map((t) =>
              h('th', {}, t)
            )
          )
        ),
        rows
      )
    ),
    note,
    form
  )

  async function load() {
    try {
      const [rules, current, latency] = await Promise.all([
        api('/__admin/rules'),
        api('/__admin/scenario'),
        api('/__admin/latency'),
      ])
      scenario.textContent = `Scenario in force: ${current.data.name}${current.data.description ? ` (${current.data.description})` : ''}. Global latency: ${latency.data.ms} ms. Rules are tried newest first.`
      rows.replaceChildren(
        ...(rules.data.length
          ? rules.data.map((r) =>
              h(
                'tr',
                { 'data-id': r.id },
                cell(r.id, 'mono'),
                cell(r.source),
                cell(JSON.stringify(r.match), 'mono wide'),
                cell(outcomeOf(r)),
                cell(r.matched),
                cell(r.fired),
                cell(r.remaining ? JSON.stringify(r.remaining) : '∞', 'mono'),
                h(
                  'td',
                  {},
                  h(
                    'button',
                    {
                      type: 'button',
                      onclick: async () => {
                        try {
                          await api(`/__admin/rules/${encodeURIComponent(r.id)}`, {
                            method: 'DELETE',
                          })
                          load()
                        } catch (error) {
                          showError(note, error)
                        }
                      },
                    },
                    'Remove'
                  )
                )
              )
            )
          : [empty(8, 'No rules: every request gets the normal answer. Add one below.')])
      )
    } catch (e) {
      showError(note, e)
    }
  }

  return liveView(load, 200, ['rules', 'reset', 'request'])
}

/* ------------------------------------------------------------------ shell */

/* ------------------------------------------------------------------ webhooks */

/** The CSS class of an outcome, as the journal colours statuses. */
const OUTCOME_CLASS = { delivered: 's2', retrying: 's4', failed: 's5', dropped: 's5' }

function webhooksView(root) {
  const form = h(
    'form',
    { className: 'filters', onsubmit: (e) => e.preventDefault() },
    field('Type', h('input', { name: 'type', placeholder: 'message.sent' })),
    field(
      'Outcome',
      select('status', [
        ['', 'any'],
        ...['delivered', 'retrying', 'failed', 'dropped'].map((o) => [o, o]),
      ])
    )
  )
  const rows = h('tbody')
  const note = h('div', { className: 'pager' })
  const detail = h('section', { className: 'detail', hidden: true })
  splitView(
    root,
    'Webhooks',
    form,
    [
      table(
        'webhooks-table',
        ['Time', 'Type', 'Endpoint', 'Attempt', 'Outcome', 'Key', 'Duration'],
        rows
      ),
      note,
    ],
    detail
  )
  const filters = () => Object.fromEntries(new FormData(form))

  async function load() {
    try {
      const page = await api(`/__admin/webhooks/deliveries?${query({ ...filters(), limit: 200 })}`)
      rows.replaceChildren(
        ...(page.data.length
          ? page.data.map((d) =>
              h(
                'tr',
                { tabindex: 0, onclick: () => open(d) },
                timeCell(d.at),
                cell(d.type, 'mono'),
                cell(d.url, 'mono endpoint'),
                cell(String(d.attempt)),
                h(
                  'td',
                  {},
                  h(
                    'span',
                    { className: `status ${OUTCOME_CLASS[d.outcome] ?? ''}` },
                    d.status === null ? d.outcome : `${d.outcome} ${d.status}`
                  )
                ),
                cell(d.apiKey, 'mono'),
                cell(`${d.durationMs} ms`, 'nowrap')
              )
            )
          : [empty(7, 'No deliveries yet: add an endpoint (POST /__admin/webhooks) and trigger.')])
      )
      note.textContent = `${page.data.length} of ${page.totalCount} (the log keeps ${page.capacity})`
    } catch (e) {
      showError(note, e)
    }
  }

  function open(d) {
    detail.hidden = false
    detail.replaceChildren(
      closeButton(detail),
      h('h3', {}, `${d.type} → ${d.url}`),
      h('p', {}, d.error ?? ''),
      h('h4', {}, `Body${d.bodyTruncated ? ' (first 16 kB)' : ''}`),
      h('pre', {}, d.body),
      h('h4', {}, 'Attempt'),
      h('pre', {}, pretty({ ...d, body: undefined }))
    )
  }

  form.addEventListener('input', debounce(load, 200))
  return liveView(load, 150, ['webhook', 'reset'])
}

const VIEWS = {
  outbox: outboxView,
  journal: journalView,
  environments: environmentsView,
  rules: rulesView,
  webhooks: webhooksView,
}
let current

function route() {
  const name = location.hash.slice(1) in VIEWS ? location.hash.slice(1) : 'outbox'
  for (const a of document.querySelectorAll('nav a'))
    a.classList.toggle('active', a.hash === `#${name}`)
  current = VIEWS[name](document.getElementById('app'))
}

function listen() {
  const live = document.getElementById('live')
  const source = new EventSource('/__admin/events')
  source.onopen = () => live.classList.add('on')
  source.onerror = () => live.classList.remove('on')
  for (const type of ['request', 'message', 'rules', 'reset', 'webhook'])
    source.addEventListener(type, () => current?.onEvent(type))
}

const login = document.getElementById('login')
if (login) setupLogin(login)
else {
  window.addEventListener('hashchange', route)
  route()
  listen()
}
