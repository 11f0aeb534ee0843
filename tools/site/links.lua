-- links.lua: pandoc filter for `make site` (tools/site.sh sets the environment).
--
-- Links and images: a relative target is resolved against the Markdown file's
-- folder in the repository, then
--   * a page of the site (a .md we render, or a folder whose README.md we render)
--     becomes a link to its .html, relative to the page being written;
--   * a target under solutions/ is moved to the same path under labs/ when the
--     student copy has it: the site never publishes solution sources;
--   * any other file of the repository is listed in SITE_ASSETS (site.sh copies
--     it to the same path under site/);
--   * anything else is left as written and reported here; the browser test then
--     fails on it as a broken link. One exception: a chart plots/X.png whose script
--     plots/X.gp exists but has no data yet becomes a note saying so.
-- Code blocks: CUDA is highlighted as C++ (pandoc has no CUDA syntax); a block
-- without a language gets C++ or shell when its lines look like one of them.
--
-- Environment: SITE_SOURCE  repository path of the Markdown file
--              SITE_OUTPUT  path of the page under site/
--              SITE_PAGES   file of "repository path<TAB>site path" lines
--              SITE_FILES   file listing every repository file and folder
--              SITE_ASSETS  file this filter appends asset paths to

local source = os.getenv("SITE_SOURCE")
local output = os.getenv("SITE_OUTPUT")

local function lines_of(path)
    local list = {}
    for line in io.lines(path) do list[#list + 1] = line end
    return list
end

local pages = {}
for _, line in ipairs(lines_of(os.getenv("SITE_PAGES"))) do
    local repo, site = line:match("^([^\t]+)\t(.+)$")
    if repo then pages[repo] = site end
end
local files = {}
for _, line in ipairs(lines_of(os.getenv("SITE_FILES"))) do files[line] = true end
local assets = io.open(os.getenv("SITE_ASSETS"), "a")

local function directory_of(path)
    return path:match("^(.*)/[^/]*$") or ""
end

-- "a/b/../c/./d" -> "a/c/d"; nil when it climbs out of the repository.
local function normalize(path)
    local parts = {}
    for part in path:gmatch("[^/]+") do
        if part == ".." then
            if #parts == 0 then return nil end
            table.remove(parts)
        elseif part ~= "." then
            parts[#parts + 1] = part
        end
    end
    return table.concat(parts, "/")
end

-- Path of `target` as seen from a page at site path `from` (both relative to site/).
local function relative(target, from)
    local up, down = {}, {}
    for part in directory_of(from):gmatch("[^/]+") do up[#up + 1] = part end
    for part in target:gmatch("[^/]+") do down[#down + 1] = part end
    local common = 0
    while common < #up and common < #down - 1 and up[common + 1] == down[common + 1] do
        common = common + 1
    end
    local rel = {}
    for _ = common + 1, #up do rel[#rel + 1] = ".." end
    for i = common + 1, #down do rel[#rel + 1] = down[i] end
    return table.concat(rel, "/")
end

local function warn(target, what)
    io.stderr:write(string.format("site: %s: link '%s': %s\n", source, target, what))
end

local function rewrite(target)
    if target == "" or target:match("^#") or target:match("^%a[%w+.-]*:") or target:match("^/") then
        return target -- same page, absolute URL (http:, mailto:) or server path
    end
    local path, fragment = target:match("^([^#]*)(.*)$")
    local repo = normalize(directory_of(source) .. "/" .. path)
    if not repo then
        warn(target, "leaves the repository")
        return target
    end
    if repo:match("^solutions/") then
        local student = "labs/" .. repo:sub(#"solutions/" + 1)
        if pages[student] or files[student] then
            repo = student
        elseif not pages[repo] then
            warn(target, "no such file under labs/ (the site never publishes solutions/)")
            return target
        end
    end
    if pages[repo] then
        return relative(pages[repo], output) .. fragment
    end
    if files[repo] then
        assets:write(repo, "\n")
        return relative(repo, output) .. fragment
    end
    warn(target, "no such file")
    return target
end

function Link(el)
    el.target = rewrite(el.target)
    return el
end

-- A chart whose gnuplot script exists but whose CSV is not measured yet (make plots
-- skips it) is a known, pending state: say so on the page instead of a broken image.
local function pending_chart(src)
    local path = src:match("^([^#]*)")
    local repo = normalize(directory_of(source) .. "/" .. path)
    local name = repo and repo:match("^plots/(.+)%.png$")
    if not name or files[repo] or not files["plots/" .. name .. ".gp"] then return nil end
    local script = io.open("plots/" .. name .. ".gp")
    local data = script and script:read("l"):match("^# data: *(.-)%s*$") or "?"
    if script then script:close() end
    io.stderr:write(string.format("site: %s: chart %s not drawn yet (plots/data/%s not measured): a note instead\n",
                                  source, repo, data))
    return pandoc.Emph({ pandoc.Str(string.format("[Chart not measured yet: %s draws it from plots/data/%s.]",
                                                  "plots/" .. name .. ".gp", data)) })
end

function Image(el)
    local note = pending_chart(el.src)
    if note then return note end
    el.src = rewrite(el.src)
    return el
end

local aliases = { cuda = "cpp", cu = "cpp", cuh = "cpp", ["c++"] = "cpp", sh = "bash", shell = "bash",
                  console = "bash" }

-- Guess the language of a block written without one.
local function guess(text)
    local lines, shell, c = 0, 0, 0
    for line in text:gmatch("[^\n]+") do
        lines = lines + 1
        if line:match("^%s*make%s") or line:match("^%s*%./") or line:match("^%s*%$ ")
            or line:match("^%s*ncu%s") or line:match("^%s*nvcc%s") or line:match("^%s*git%s") then
            shell = shell + 1
        elseif line:match(";%s*$") or line:match("[{}]") or line:match(";%s*/[/*]")
            or line:match("^%s*#include") or line:match("^%s*/[/*]") then
            c = c + 1
        end
    end
    if shell * 2 > lines then return "bash" end
    if c > 0 and c * 4 >= lines then return "cpp" end
    return nil
end

function CodeBlock(el)
    local lang = el.classes[1]
    if lang then
        el.classes[1] = aliases[lang] or lang
    else
        local guessed = guess(el.text)
        if guessed then el.classes:insert(guessed) end
    end
    return el
end
