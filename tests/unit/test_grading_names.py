"""Names in a question, and the ones a book only mentions in passing (refused offline)."""

from agent.offline.grading import (
    GradeThresholds,
    foreign_features,
    off_book,
    passing_names,
    question_names,
    unexplained_subject,
    unknown_names,
    unknown_share,
    unnamed_flags,
)
from agent.offline.text import (
    capitalised_terms,
    code_compounds,
    command_terms,
    compounds,
    name_words,
    terms,
)
from agent.retrieval.vocabulary import Vocabulary
from agent.state import Candidate


def test_names_are_caps_camel_case_identifiers_or_capitalised_inside_a_sentence():
    assert question_names("How do I set rustfmt's max_width in rustfmt.toml?") == [
        "max_width",
        "rustfmt.toml",
    ]
    assert question_names("Does MoveIt run on ROS?") == ["MoveIt", "ROS"]
    assert question_names("Is a Roomba a robot?") == ["Roomba"]
    # the word that opens a sentence is capitalised for grammar, not because it is a name
    assert question_names("Colleagues commit files. Which setting fixes it?") == []
    # nor is a word of chat that readers write in capitals
    assert question_names("OK, and what do I set in ROS? FYI it is Humble.") == ["ROS", "Humble"]


def test_a_word_of_chat_is_no_word_the_book_must_know():
    vocabulary = Vocabulary({t: 4 for t in terms("run gazebo same machine")}, 100)
    assert unknown_share("Is it OK to run Gazebo on the same machine?", vocabulary) == 0.0


def test_words_in_quotes_are_the_reader_s_examples_not_names():
    question = "Should my actions be named like 'setCount' or like 'counterIncremented'?"
    assert question_names(question) == []
    assert question_names('Why does "Actions must be plain objects" come from NgRx?') == ["NgRx"]
    # apostrophes inside words open no quote
    assert question_names("Why doesn't MoveIt plan? Is it Redux's fault?") == ["MoveIt", "Redux"]


def test_the_names_of_the_readers_own_code_are_not_asked_about():
    question = "I added an apiBaseUrl key to the config. Why does my PostsFeed component break?"
    assert question_names(question) == []
    # a library used as a noun's modifier is still a name, and so is another library's API
    assert question_names("How do I define a Pinia store in a Vue app?") == ["Pinia", "Vue"]
    assert question_names("How do I set staleTime for a query?") == ["staleTime"]


def test_an_unknown_word_that_opens_the_question_is_not_taken_for_a_name():
    vocabulary = Vocabulary({t: 4 for t in terms("line endings repository windows")}, 100)
    assert unknown_names("Colleagues on Windows change line endings. Why?", vocabulary) == []
    assert unknown_names("Which is better, Roomba or Windows?", vocabulary) == ["Roomba"]


def test_an_unknown_name_only_in_the_scene_a_question_sets_is_no_other_product():
    vocabulary = Vocabulary({t: 4 for t in terms("machines slow tests default timeout")}, 100)
    question = "Our CI machines are slow and tests give up early. What is the default timeout?"
    assert unknown_names(question, vocabulary) == []
    assert unknown_names("Which default timeout does CI use?", vocabulary) == ["CI"]
    # a follow-up's earlier topic is part of what it asks
    assert unknown_names("It is slow. What is its timeout? (Roomba)", vocabulary) == ["Roomba"]


def test_a_file_type_the_book_never_writes_is_off_book():
    vocabulary = Vocabulary({t: 4 for t in terms("compile files css json plugin copy")}, 100)
    question = "Can it compile my .scss files to CSS, and which plugin do I add?"
    assert unknown_names(question, vocabulary) == [".scss"]
    # a file type the book writes is asked about like any word, wherever it stands
    assert unknown_names("My .json and .css files are not copied. Why?", vocabulary) == []
    # "e.g." and a version are no file types
    assert unknown_names("Which plugin, e.g. for css, in v1.2?", vocabulary) == []


def test_a_capitalised_word_the_book_writes_only_in_lower_case_names_something_else():
    book = "Go ahead and run the formatter. The Topics page: code style rules.\n# Style Rules"
    vocabulary = Vocabulary(
        {t: 5 for t in terms("go ahead run formatter topics code style rules enforce")},
        100,
        capitalised_terms([book]),
    )
    # "Go" opens a sentence in the book, so it is a word there, not a name
    assert unknown_names("Which rules does gofmt enforce for Go code?", vocabulary) == ["Go"]
    # the book writes "Topics" and "Rules" mid-sentence or in a heading: they name its things
    assert unknown_names("What does the Topic page say about Rules?", vocabulary) == []
    # all-caps words and identifiers are judged by their terms alone
    assert unknown_names("Which CODE rules does it enforce?", vocabulary) == []
    assert unknown_names("Why is code.style run?", vocabulary) == []
    # a vocabulary read without the text judges no word by its case
    unread = Vocabulary(vocabulary.document_frequency, 100)
    assert unknown_names("Which rules does gofmt enforce for Go code?", unread) == []
    # a follow-up's earlier topic keeps the capital of the word that opened the earlier turn
    # ("Go ahead and run the formatter…"): the reader wrote no name
    assert unknown_names("Does that enforce rules? (Go ahead run formatter)", vocabulary) == []


def test_another_command_of_a_tool_the_book_only_shows_is_off_book():
    book = (
        "Install the formatter with your package manager:\n\n"
        "```bash\n$ deno install --dev formatter\n```\n\n"
        "Then run `deno x formatter --write .` to format something in the vendor folder."
    )
    words = "install formatter package manager deno dev run format something vendor folder"
    vocabulary = Vocabulary(
        {t: 5 for t in terms(words)}, 100, capitalised_terms([book]), command_terms([book])
    )
    question = "How do I make deno fmt skip my vendor folder?"
    assert unknown_names(question, vocabulary) == ["deno fmt"]
    # a command the book shows, and a word it writes in prose before an unknown one, are not
    assert unknown_names("Can deno install pin a version?", vocabulary) == []
    assert unknown_names("What if something breaks when I format?", vocabulary) == []


def test_a_follow_up_asking_only_words_the_book_never_uses_is_off_book():
    frequencies = {t: 4 for t in terms("domain randomization vary lighting run")}
    vocabulary = Vocabulary(frequencies | {t: 80 for t in terms("robot")}, 100)
    thresholds = GradeThresholds()
    # its earlier topic's words are the book's, yet nothing the reader asks of it is
    assert off_book("can it dance? (domain randomization)", vocabulary, thresholds)
    assert off_book("is there one for safari? (domain randomization)", vocabulary, thresholds)
    assert off_book("can the robot dance? (domain randomization)", vocabulary, thresholds)
    # a word of its own the book uses, or no topic appended, and the usual bar decides
    assert not off_book("can it run backwards? (domain randomization)", vocabulary, thresholds)
    assert not off_book("how do I vary the lighting?", vocabulary, thresholds)
    assert not off_book("and the other one? (domain randomization)", vocabulary, thresholds)


def chunk(text: str) -> Candidate:
    return Candidate(id=text[:8], score=1.0, dense_score=0.5, payload={"text": text})


def test_a_name_the_book_mentions_in_passing_is_off_book_unless_the_answer_mentions_it():
    vocabulary = Vocabulary(
        {
            **{t: 40 for t in terms("store state reducer middleware")},
            **{t: 1 for t in terms("Zustand")},
        },
        200,
    )
    question = "Can Zustand middleware persist state?"
    about_something_else = [chunk("Middleware wraps the store's dispatch to persist state.")]
    assert passing_names(question, vocabulary, about_something_else) == ["Zustand"]
    about_it = [chunk("Unlike Zustand, this store keeps one reducer.")]
    assert passing_names(question, vocabulary, about_it) == []
    # a name the book uses often is its own topic, whatever was kept
    common = Vocabulary({**vocabulary.document_frequency, **{t: 9 for t in terms("Zustand")}}, 200)
    assert passing_names(question, common, about_something_else) == []


def test_a_word_the_book_writes_only_as_a_name_is_read_as_one_in_lower_case():
    book = [
        "Run the oven's controller in Docker. Bakers on Windows use the same image.",
        "## Running in Production\n\nKeep the windows of the bakery closed.",
        "```bash\novenctl start --proof\n```\n\nThe proofing cabinet runs on Mains power.",
        "Plug it into the mains.",
    ]
    # "Windows" is also written as a word, "Production" only in a heading, "Mains" also in
    # lower case; "ovenctl" and "proof" only as code
    assert name_words(book) == {"docker"}
    vocabulary = Vocabulary(
        {
            **{t: 30 for t in terms("oven controller image run gpu flags container")},
            **{t: 1 for t in terms("Docker")},
        },
        200,
        name_words=name_words(book),
    )
    question = "oven controller in a docker container - which run flags give it the gpu?"
    about_the_oven = [chunk("The oven controller needs a GPU; run it with the flags below.")]
    assert passing_names(question, vocabulary, about_the_oven) == ["docker"]
    assert passing_names(question.replace("docker", "Docker"), vocabulary, about_the_oven) == [
        "Docker"
    ]
    in_docker = [chunk("In Docker, give the oven controller the GPU with the flags below.")]
    assert passing_names(question, vocabulary, in_docker) == []


def test_a_name_among_its_page_s_keywords_is_what_each_of_its_sections_is_about():
    vocabulary = Vocabulary(
        {**{t: 30 for t in terms("oven plan stop dangerous")}, **{t: 2 for t in terms("LLM")}},
        200,
    )
    question = "How do I stop the oven if the LLM's plan is dangerous?"
    checks = "Never run a plan straight from a language model: stop and check each step first."
    unkeyed = Candidate(id="a", score=1.0, dense_score=0.5, payload={"text": checks})
    keyed = Candidate(
        id="b", score=1.0, dense_score=0.5, payload={"text": checks, "keywords": ["llm planner"]}
    )
    assert passing_names(question, vocabulary, [unkeyed]) == ["LLM"]
    assert passing_names(question, vocabulary, [keyed]) == []


def test_a_name_the_book_shows_only_in_an_example_is_not_answered_by_that_example():
    vocabulary = Vocabulary(
        {**{t: 40 for t in terms("parser plugin config faster")}, **{t: 1 for t in terms("Oxc")}},
        200,
    )
    question = "Is Oxc faster than the babel parser?"
    example = chunk('Share a config:\n\n```js\nimport * as oxc from "Oxc";\n```\n')
    assert passing_names(question, vocabulary, [example]) == ["Oxc"]
    said = chunk("The Oxc parser is faster than babel.\n\n```js\nimport * as oxc from 'Oxc';\n```")
    assert passing_names(question, vocabulary, [said]) == []
    # an identifier is code's own word: the code that uses it speaks of it
    rare = Vocabulary({**vocabulary.document_frequency, **{t: 1 for t in terms("INIT")}}, 200)
    store = chunk("The store starts itself:\n\n```js\ndispatch({ type: 'INIT' })\n```")
    assert passing_names("Do I need a case for INIT in my parser config?", rare, [store]) == []


def test_asked_what_a_thing_mentioned_in_passing_is_a_chunk_must_explain_it():
    vocabulary = Vocabulary(
        {**{t: 40 for t in terms("dough oven bread")}, **{t: 2 for t in terms("banneton")}}, 200
    )
    question = "What's a banneton? My recipe says to use one."
    listed = chunk("- Tools: an oven, a scale, a banneton and a bench knife.")
    assert unexplained_subject(question, vocabulary, [listed]) == "banneton"
    defining = chunk("A banneton is a basket that holds the dough while it proofs.")
    assert unexplained_subject(question, vocabulary, [listed, defining]) == ""
    headed = {**listed, "payload": {**listed["payload"], "heading_path": ["Tools", "Banneton"]}}
    assert unexplained_subject(question, vocabulary, [headed]) == ""
    introduced = chunk("Dough rises in a **banneton** (a proofing basket), lined with flour.")
    assert unexplained_subject(question, vocabulary, [introduced]) == ""
    # another name for what the sentence has just named says what the thing is...
    aliased = chunk("The `proofing-basket` kit (banneton) holds the dough while it proofs.")
    assert unexplained_subject(question, vocabulary, [aliased]) == ""
    # ...but not a parenthesis that lists it among others
    among = chunk("The shop sells proofing tools (banneton, couche) by the door.")
    assert unexplained_subject(question, vocabulary, [among]) == "banneton"
    # a thing the book writes often is its own topic; other questions are not asked of it
    common = Vocabulary({**vocabulary.document_frequency, **{t: 9 for t in terms("banneton")}}, 20)
    assert unexplained_subject(question, common, [listed]) == ""
    assert unexplained_subject("Where does the banneton go?", vocabulary, [listed]) == ""


def test_a_thing_of_several_words_is_explained_where_one_of_them_is_in_its_own_right():
    rare = {t: 2 for t in terms("banneton liners")}
    vocabulary = Vocabulary({**{t: 40 for t in terms("dough oven bread")}, **rare}, 200)
    question = "What are banneton liners?"
    section = chunk("A **banneton** is a proofing basket; its liners are cloth.")
    assert unexplained_subject(question, vocabulary, [section]) == ""
    headed = chunk("It holds the dough while it proofs; cloth liners keep it from sticking.")
    headed["payload"]["heading_path"] = ["Tools", "Banneton"]
    assert unexplained_subject(question, vocabulary, [headed]) == ""
    # a page title naming one of the words does not explain it, nor a chunk missing a word
    titled = chunk("The bakery sells cloth liners for every banneton it stocks.")
    titled["payload"]["heading_path"] = ["Banneton Care", "Shop"]
    assert unexplained_subject(question, vocabulary, [titled]) == "banneton liners"
    assert unexplained_subject(question, vocabulary, [chunk("A **banneton** is a basket.")]) == (
        "banneton liners"
    )


def test_asked_what_a_name_of_the_scene_is_by_pointing_back_a_chunk_must_explain_it():
    vocabulary = Vocabulary(
        {**{t: 40 for t in terms("dough oven bread")}, **{t: 1 for t in terms("ProofMate")}}, 200
    )
    question = "My baker switched the dough to ProofMate. What is that thing?"
    mentioned = chunk("Since the last release, the oven also runs ProofMate on the dough.")
    assert unexplained_subject(question, vocabulary, [mentioned]) == "ProofMate"
    explained = chunk("**ProofMate** is a cabinet that keeps the dough warm while it rises.")
    assert unexplained_subject(question, vocabulary, [explained]) == ""
    # a question that asks something else of the scene's name is left to the other rules
    assert unexplained_subject("I use ProofMate. How long?", vocabulary, [mentioned]) == ""


def test_a_name_only_in_the_scene_a_question_sets_is_the_readers_setting():
    vocabulary = Vocabulary(
        {
            **{t: 40 for t in terms("store update callback render stale fix")},
            **{t: 1 for t in terms("setTimeout")},
        },
        200,
    )
    kept = [chunk("Wrap the update in a batch so a stale child never renders.")]
    scene = "Updating the store from a setTimeout callback renders a stale child. How do I fix it?"
    assert passing_names(scene, vocabulary, kept) == []
    # named where the question asks, it is what the question is about
    asked = "Updating the store renders a stale child. Should I use setTimeout to fix it?"
    assert passing_names(asked, vocabulary, kept) == ["setTimeout"]
    # a name only in a follow-up's earlier topic is the conversation's setting
    follow_up = "How do I fix it? (updating store setTimeout callback renders stale child)"
    assert passing_names(follow_up, vocabulary, kept) == []
    assert passing_names("Should I use setTimeout? (stale child)", vocabulary, kept) == [
        "setTimeout"
    ]


def test_a_name_of_the_scene_that_the_asking_sentence_owns_by_its_is_asked_about():
    vocabulary = Vocabulary(
        {
            **{t: 40 for t in terms("oven timer setting bake save file")},
            **{t: 1 for t in terms("BakeMate")},
        },
        200,
    )
    kept = [chunk("Set the oven timer in the settings file before you bake.")]
    owned = "My bakery runs the BakeMate app. Which setting in its settings file starts the oven?"
    assert passing_names(owned, vocabulary, kept) == ["BakeMate"]
    # a name the reader only sets the scene with stays their setting
    setting = "My bakery runs the BakeMate app. Which setting starts the oven timer?"
    assert passing_names(setting, vocabulary, kept) == []


def test_how_to_use_a_name_needs_a_chunk_about_it_not_one_line_of_a_catalogue():
    vocabulary = Vocabulary(
        {**{t: 40 for t in terms("store state app inspect")}, **{t: 1 for t in terms("Tron")}}, 200
    )
    catalogue = chunk(
        "**[acme/tron](https://github.com/acme/tron)**\n\nA desktop app for inspecting state."
    )
    # one linked line says that Tron exists, which answers whether it does
    assert (
        passing_names("Is there an app like Tron to inspect state?", vocabulary, [catalogue]) == []
    )
    how = "How do I connect Tron to my app to inspect state?"
    assert passing_names(how, vocabulary, [catalogue]) == ["Tron"]
    headed = Candidate(
        id="h",
        score=1.0,
        dense_score=0.5,
        payload={"text": "Connect it to the app you inspect.", "heading_path": ["Tron"]},
    )
    assert passing_names(how, vocabulary, [headed]) == []
    # a sentence of the book's own that names it speaks of it
    prose = chunk("Connect the inspector (Tron) before the app starts.")
    assert passing_names(how, vocabulary, [prose]) == []
    # but one that names it and says nothing of what is asked does not say how
    warning = chunk("Tron versions older than 2.0 undo this plugin's output.")
    assert passing_names(how, vocabulary, [warning]) == ["Tron"]
    # a name in the scene a question sets is the reader's setting: a mention answers for it
    scene = "My app runs under Tron and the state is empty. How do I fix that?"
    assert passing_names(scene, vocabulary, [catalogue]) == []


def test_another_tools_feature_needs_a_chunk_that_names_the_two_together():
    vocabulary = Vocabulary(
        {**{t: 60 for t in terms("runner batch option bail")}, **{t: 2 for t in terms("Mocha")}},
        100,
    )
    own_flag = chunk("The bail option stops the run after the first failing batch.")
    comparison = chunk("Unlike Mocha, our runner keeps every batch in its own process.")
    question = "What does Mocha's --bail option do?"
    assert foreign_features(question, vocabulary, [own_flag, comparison]) == ["Mocha's --bail"]
    both = chunk("Mocha's --bail flag stops at the first failure, as our bail option does.")
    assert foreign_features(question, vocabulary, [own_flag, both]) == []
    # "What's", "That's": no name owns anything
    assert foreign_features("What's the bail option for? That's unclear.", vocabulary, []) == []
    # a feature named by framing words only, or the book's own subject, is not another thing's
    assert foreign_features("What is Mocha's role here?", vocabulary, [own_flag]) == []
    assert foreign_features("What is the runner's stance on bail?", vocabulary, [own_flag]) == []
    own = Vocabulary({**vocabulary.document_frequency, **{t: 40 for t in terms("Mocha")}}, 100)
    assert foreign_features("What is Mocha's stance on retries?", own, [own_flag]) == []


def test_a_flag_must_be_spelled_out_by_a_kept_chunk():
    kept = [chunk("Run `ovenctl bake --rewrite-cards` to write the cards again.")]
    assert unnamed_flags("What does --rewrite-cards do?", kept) == []
    assert unnamed_flags("What does the --backend flag choose?", kept) == ["--backend"]
    # its words alone are not the flag; a quoted one is the reader's own text
    assert unnamed_flags("Which backend does --rewrite do?", kept) == ["--rewrite"]
    assert unnamed_flags("I typed '--force' and nothing happened. Why?", kept) == []


def test_how_to_use_a_name_no_section_is_titled_with_needs_a_chunk_about_it():
    # named in a few exercise lists as one choice of simulator, titled nowhere
    frequencies = {
        **{t: 40 for t in terms("robot simulator load model collision step")},
        **{t: 6 for t in terms("PyBullet")},
    }
    headings = terms("Isaac Sim Importing URDF Files Gazebo")
    vocabulary = Vocabulary(frequencies, 200, headed=headings)
    how = "How do I load my robot model in PyBullet with self collision, and step it?"
    importer = chunk("Import the robot model and enable self collision before you step the sim.")
    assert passing_names(how, vocabulary, [importer]) == ["PyBullet"]
    lab = chunk("Load the robot model in PyBullet, turn on self collision and step the world.")
    assert passing_names(how, vocabulary, [lab]) == []
    # a name that titles a section of the book is one of its topics
    titled = Vocabulary(frequencies, 200, headed=headings | terms("PyBullet"))
    assert passing_names(how, titled, [importer]) == []
    # with the headings not read, six mentions are more than a passing one
    assert passing_names(how, Vocabulary(frequencies, 200), [importer]) == []


def test_a_package_the_book_writes_as_code_is_a_name_counted_whole():
    catalogue = "- [parallel-prettier](https://example.com/pp) formats files in parallel"
    texts = [catalogue, "Prettier formats files. Run it in parallel on CI with workers."]
    frequencies = {t: 30 for t in terms(" ".join(texts) + " processes number set")}
    written = {"parallel-prettier": 1, "old-style": 1}
    vocabulary = Vocabulary(frequencies, 100, compound_chunks=written)
    how = "How do I set the number of worker processes parallel-prettier uses?"
    assert passing_names(how, vocabulary, [chunk(catalogue)]) == ["parallel-prettier"]
    own = chunk("`parallel-prettier` takes `--concurrency`: the number of worker processes.")
    assert passing_names(how, vocabulary, [own]) == []
    # its words alone ("parallel", "prettier") are not the name
    assert passing_names(how, vocabulary, [chunk(texts[1])]) == ["parallel-prettier"]


def test_only_compounds_written_as_code_or_link_text_name_things():
    texts = [
        "Use [connected-react-router](https://x.example) or `redux-saga`; an old-style worker.",
        "```js\nimport fork from 'redux-first-history'\n```",
        # a linked article's title is prose: its compound is a word, not a package
        "- [Ask HN: Overwhelmed with learning front-end?](https://x.example)",
        "Memoize per key with [`re-reselect`](https://x.example).",
        "See [**redux-toolkit-starter**](https://x.example) or [owner/redux-orm-lite](x).",
    ]
    assert code_compounds(texts) == {
        "connected-react-router",
        "redux-saga",
        "redux-first-history",
        "re-reselect",
        "redux-toolkit-starter",
        "redux-orm-lite",
    }
    assert compounds("See rustfmt.toml and console.error. An old-style worker.") == {"old-style"}


def test_a_name_from_a_follow_ups_earlier_topic_titling_nothing_is_the_scene():
    frequencies = {
        **{t: 40 for t in terms("plugin publish joint often")},
        **{t: 4 for t in terms("RViz")},
    }
    vocabulary = Vocabulary(frequencies, 200, headed=terms("Joint State Publisher Plugin"))
    kept = [chunk("Add the joint state publisher plugin and set how often it publishes.")]
    follow_up = (
        "Which plugin do I add for that, and how often should it publish? (frozen arm in RViz)"
    )
    assert passing_names(follow_up, vocabulary, kept) == []
    assert passing_names("Which plugin makes RViz show the arm move?", vocabulary, kept) == ["RViz"]
