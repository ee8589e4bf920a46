package gen

// The word lists below are invented for the demo knowledge base. Names are
// composed from generic words and made-up syllables; none is taken from a
// real catalogue, and no real publisher or vendor brand is used.

// area is a subject area: the topics titles are named after and the subject
// headings they carry (three TLI-style headings for serials, three
// BISAC-style headings for books).
type area struct {
	name   string
	topics [10]string
	tli    [3]string
	bisac  [3]string
}

var areas = [...]area{
	{"Medicine",
		[10]string{"Clinical Cardiology", "Internal Medicine", "Oncology", "Pediatrics", "Neurology", "General Surgery", "Dermatology", "Immunology", "Diagnostic Imaging", "Anesthesiology"},
		[3]string{"Medicine", "Clinical Sciences", "Surgery"},
		[3]string{"MEDICAL / General", "MEDICAL / Clinical Practice", "MEDICAL / Surgery / General"}},
	{"Nursing & Public Health",
		[10]string{"Nursing Practice", "Public Health", "Epidemiology", "Health Policy", "Midwifery", "Nutrition", "Occupational Health", "Global Health", "Rehabilitation", "Health Informatics"},
		[3]string{"Nursing", "Public Health", "Health Care Administration"},
		[3]string{"MEDICAL / Nursing / General", "HEALTH & FITNESS / Nutrition", "MEDICAL / Public Health"}},
	{"Life Sciences",
		[10]string{"Cell Biology", "Molecular Genetics", "Microbiology", "Ecology", "Marine Biology", "Botany", "Zoology", "Biochemistry", "Evolutionary Biology", "Neuroscience"},
		[3]string{"Biology", "Genetics", "Ecology"},
		[3]string{"SCIENCE / Life Sciences / General", "SCIENCE / Life Sciences / Genetics", "SCIENCE / Life Sciences / Ecology"}},
	{"Chemistry",
		[10]string{"Organic Chemistry", "Analytical Chemistry", "Physical Chemistry", "Polymer Science", "Catalysis", "Materials Chemistry", "Electrochemistry", "Spectroscopy", "Medicinal Chemistry", "Green Chemistry"},
		[3]string{"Chemistry", "Materials Science", "Pharmacology"},
		[3]string{"SCIENCE / Chemistry / General", "SCIENCE / Chemistry / Organic", "TECHNOLOGY & ENGINEERING / Materials Science"}},
	{"Physics & Astronomy",
		[10]string{"Condensed Matter Physics", "Optics", "Particle Physics", "Astrophysics", "Plasma Physics", "Quantum Information", "Acoustics", "Planetary Science", "Nuclear Physics", "Applied Physics"},
		[3]string{"Physics", "Astronomy", "Optics"},
		[3]string{"SCIENCE / Physics / General", "SCIENCE / Space Science / Astronomy", "SCIENCE / Physics / Quantum Theory"}},
	{"Mathematics & Statistics",
		[10]string{"Applied Mathematics", "Algebra", "Number Theory", "Probability", "Mathematical Statistics", "Topology", "Numerical Analysis", "Combinatorics", "Operations Research", "Differential Equations"},
		[3]string{"Mathematics", "Statistics", "Operations Research"},
		[3]string{"MATHEMATICS / General", "MATHEMATICS / Probability & Statistics / General", "MATHEMATICS / Applied"}},
	{"Computer Science",
		[10]string{"Software Engineering", "Machine Learning", "Computer Networks", "Information Security", "Database Systems", "Human-Computer Interaction", "Distributed Systems", "Computer Graphics", "Programming Languages", "Data Science"},
		[3]string{"Computer Science", "Information Technology", "Artificial Intelligence"},
		[3]string{"COMPUTERS / General", "COMPUTERS / Artificial Intelligence / General", "COMPUTERS / Software Development & Engineering / General"}},
	{"Engineering",
		[10]string{"Civil Engineering", "Mechanical Engineering", "Electrical Engineering", "Chemical Engineering", "Aerospace Engineering", "Robotics", "Structural Engineering", "Transportation Engineering", "Energy Systems", "Biomedical Engineering"},
		[3]string{"Engineering", "Energy", "Transportation"},
		[3]string{"TECHNOLOGY & ENGINEERING / General", "TECHNOLOGY & ENGINEERING / Civil / General", "TECHNOLOGY & ENGINEERING / Power Resources / General"}},
	{"Earth & Environmental Sciences",
		[10]string{"Geology", "Climate Science", "Hydrology", "Oceanography", "Environmental Policy", "Soil Science", "Volcanology", "Atmospheric Chemistry", "Conservation Biology", "Natural Hazards"},
		[3]string{"Earth Sciences", "Environmental Sciences", "Water Resources"},
		[3]string{"SCIENCE / Earth Sciences / General", "SCIENCE / Environmental Science", "NATURE / Environmental Conservation & Protection"}},
	{"Agriculture & Food",
		[10]string{"Agronomy", "Animal Science", "Food Science", "Horticulture", "Forestry", "Fisheries", "Veterinary Medicine", "Crop Protection", "Agricultural Economics", "Dairy Science"},
		[3]string{"Agriculture", "Food Science", "Veterinary Sciences"},
		[3]string{"TECHNOLOGY & ENGINEERING / Agriculture / General", "TECHNOLOGY & ENGINEERING / Food Science", "MEDICAL / Veterinary Medicine / General"}},
	{"Economics",
		[10]string{"Macroeconomics", "Labor Economics", "Development Economics", "Econometrics", "Public Finance", "International Trade", "Monetary Policy", "Economic History", "Behavioral Economics", "Industrial Organization"},
		[3]string{"Economics", "Banking & Finance", "Development Studies"},
		[3]string{"BUSINESS & ECONOMICS / Economics / General", "BUSINESS & ECONOMICS / Economics / Macroeconomics", "BUSINESS & ECONOMICS / Development / Economic Development"}},
	{"Business & Management",
		[10]string{"Marketing", "Accounting", "Corporate Finance", "Human Resource Management", "Entrepreneurship", "Supply Chain Management", "Organizational Behavior", "Strategic Management", "Tourism and Hospitality", "Business Ethics"},
		[3]string{"Business", "Management", "Accounting"},
		[3]string{"BUSINESS & ECONOMICS / Management", "BUSINESS & ECONOMICS / Marketing / General", "BUSINESS & ECONOMICS / Accounting / General"}},
	{"Law",
		[10]string{"Constitutional Law", "International Law", "Criminal Justice", "Human Rights Law", "Commercial Law", "Environmental Law", "Legal History", "Family Law", "Intellectual Property", "Comparative Law"},
		[3]string{"Law", "Criminology & Penology", "Human Rights"},
		[3]string{"LAW / General", "LAW / Criminal Law / General", "LAW / International"}},
	{"Political Science",
		[10]string{"Comparative Politics", "International Relations", "Public Administration", "Political Theory", "Electoral Studies", "Security Studies", "Public Policy", "Regional Integration", "Governance", "Diplomacy"},
		[3]string{"Political Science", "International Relations", "Public Administration"},
		[3]string{"POLITICAL SCIENCE / General", "POLITICAL SCIENCE / International Relations / General", "POLITICAL SCIENCE / Public Policy / General"}},
	{"Sociology",
		[10]string{"Urban Studies", "Demography", "Gender Studies", "Social Work", "Migration Studies", "Criminology", "Family Studies", "Social Theory", "Rural Sociology", "Social Inequality"},
		[3]string{"Sociology", "Social Work", "Population Studies"},
		[3]string{"SOCIAL SCIENCE / Sociology / General", "SOCIAL SCIENCE / Demography", "SOCIAL SCIENCE / Gender Studies"}},
	{"Psychology",
		[10]string{"Clinical Psychology", "Cognitive Psychology", "Developmental Psychology", "Social Psychology", "Psychiatry", "Behavioral Neuroscience", "Educational Psychology", "Personality Research", "Health Psychology", "Psychotherapy"},
		[3]string{"Psychology", "Psychiatry", "Behavioral Sciences"},
		[3]string{"PSYCHOLOGY / General", "PSYCHOLOGY / Clinical Psychology", "PSYCHOLOGY / Developmental / General"}},
	{"Education",
		[10]string{"Higher Education", "Early Childhood Education", "Curriculum Studies", "Teacher Education", "Educational Technology", "Language Teaching", "Special Education", "Adult Learning", "Educational Assessment", "Science Education"},
		[3]string{"Education", "Higher Education", "Library & Information Science"},
		[3]string{"EDUCATION / General", "EDUCATION / Higher", "EDUCATION / Teaching Methods & Materials / General"}},
	{"History",
		[10]string{"Medieval History", "Early Modern History", "Maritime History", "Military History", "Colonial History", "Ancient History", "Urban History", "History of Science", "Social History", "Archaeology"},
		[3]string{"History", "Archaeology", "Classics"},
		[3]string{"HISTORY / General", "HISTORY / Europe / General", "HISTORY / Ancient / General"}},
	{"Philosophy & Religion",
		[10]string{"Ethics", "Metaphysics", "Logic", "Philosophy of Mind", "Political Philosophy", "Theology", "Religious Studies", "Scriptural Studies", "Comparative Religion", "Aesthetics"},
		[3]string{"Philosophy", "Religion", "Theology"},
		[3]string{"PHILOSOPHY / General", "PHILOSOPHY / Ethics & Moral Philosophy", "RELIGION / General"}},
	{"Language & Linguistics",
		[10]string{"Linguistics", "Phonetics", "Sociolinguistics", "Translation Studies", "Applied Linguistics", "Syntax", "Semantics", "Historical Linguistics", "Lexicography", "Second Language Acquisition"},
		[3]string{"Linguistics", "Languages", "Translation"},
		[3]string{"LANGUAGE ARTS & DISCIPLINES / Linguistics / General", "LANGUAGE ARTS & DISCIPLINES / Translating & Interpreting", "FOREIGN LANGUAGE STUDY / General"}},
	{"Literature",
		[10]string{"Comparative Literature", "Poetry", "Drama", "Literary Theory", "Renaissance Literature", "Modern Fiction", "Children's Literature", "Classical Studies", "Romanticism", "Postcolonial Literature"},
		[3]string{"Literature", "Poetry", "Drama"},
		[3]string{"LITERARY CRITICISM / General", "LITERARY CRITICISM / Poetry", "LITERARY CRITICISM / Drama"}},
	{"Arts & Architecture",
		[10]string{"Art History", "Architecture", "Photography", "Design", "Urban Planning", "Museum Studies", "Visual Culture", "Sculpture", "Landscape Architecture", "Heritage Conservation"},
		[3]string{"Art", "Architecture", "Design"},
		[3]string{"ART / History / General", "ARCHITECTURE / General", "DESIGN / General"}},
	{"Music & Performing Arts",
		[10]string{"Musicology", "Ethnomusicology", "Music Theory", "Dance", "Theatre Studies", "Film Studies", "Opera", "Music Education", "Jazz Studies", "Performance Studies"},
		[3]string{"Music", "Theater", "Film & Television"},
		[3]string{"MUSIC / General", "PERFORMING ARTS / Theater / General", "PERFORMING ARTS / Film / History & Criticism"}},
	{"Media & Communication",
		[10]string{"Journalism", "Media Studies", "Communication Theory", "Digital Media", "Public Relations", "Broadcasting", "Information Science", "Library Science", "Publishing Studies", "Rhetoric"},
		[3]string{"Communication", "Journalism", "Information Science"},
		[3]string{"LANGUAGE ARTS & DISCIPLINES / Communication Studies", "LANGUAGE ARTS & DISCIPLINES / Journalism", "LANGUAGE ARTS & DISCIPLINES / Library & Information Science / General"}},
	{"Geography & Anthropology",
		[10]string{"Human Geography", "Cultural Anthropology", "Area Studies", "Cartography", "Regional Development", "Indigenous Studies", "Folklore", "Physical Geography", "Tourism Geography", "Material Culture"},
		[3]string{"Geography", "Anthropology", "Area Studies"},
		[3]string{"SCIENCE / Earth Sciences / Geography", "SOCIAL SCIENCE / Anthropology / Cultural & Social", "SOCIAL SCIENCE / Folklore & Mythology"}},
}

// adjectives qualify journal and book names ("Nordic Journal of …").
var adjectives = [...]string{
	"Nordic", "Atlantic", "Pacific", "Continental", "Mediterranean", "Baltic", "Alpine", "Central",
	"Northern", "Southern", "Eastern", "Western", "Transatlantic", "Global", "Comparative", "Contemporary",
	"Applied", "Advanced", "Modern", "Critical", "Interdisciplinary", "Experimental", "Theoretical", "Practical",
	"Emerging", "Regional", "Coastal", "Highland", "Open", "Collaborative",
}

// aspects end journal and report names ("… Research", "… Letters").
var aspects = [...]string{
	"Research", "Studies", "Practice", "Methods", "Theory", "Policy", "Letters", "Reports",
	"Reviews", "Perspectives", "Innovation", "Education", "Technology", "Science", "Analysis", "Progress",
	"Frontiers", "Advances", "Insights", "Debates",
}

// places are invented place names.
var places = [...]string{
	"Arvendale", "Bellmoor", "Caldera Bay", "Dunhollow", "Eastmere", "Farrowfield", "Greyhaven", "Hollinsby",
	"Ivorstone", "Juniper Falls", "Kingsmere", "Lowmoor", "Marrowick", "Northwold", "Pellworth", "Ravensholm",
	"Saltmarsh", "Thistlewood", "Upper Vale", "Verdance", "Wrenfield", "Yarrowick", "Amberlea", "Brindlecombe",
	"Corrowan", "Drummage", "Elderford", "Fallowmere", "Gorsebrook", "Hethermoor", "Istervale", "Kelderby",
	"Lindenhythe", "Mossgarth", "Nethercombe", "Oakenshaw Cross", "Quarrendon", "Rushmere Lea", "Stonegarth", "Tallowby",
}

// subtitles follow a colon in book names.
var subtitles = [...]string{
	"A Critical Introduction", "Theory and Practice", "New Perspectives", "A Global History", "Methods and Applications",
	"Case Studies", "An Essential Guide", "Foundations and Frontiers", "Past, Present and Future", "Concepts and Controversies",
	"A Reader", "Selected Essays", "Debates and Directions", "A Comparative Approach", "Evidence and Interpretation",
	"Origins and Transformations", "Problems and Prospects", "A Field Guide", "Key Concepts", "Lessons from the Archive",
}

var newspaperWords = [...]string{
	"Herald", "Courier", "Gazette", "Tribune", "Chronicle", "Observer", "Ledger", "Sentinel",
	"Examiner", "Dispatch", "Post", "Register", "Mercury", "Advertiser", "Clarion", "Messenger",
}

var meetings = [...]string{"Symposium", "Conference", "Workshop", "Congress", "Colloquium", "Forum"}

// givenNames and surnames make contributor names.
var givenNames = [...]string{
	"Ada", "Amara", "Anton", "Beatrix", "Benedikt", "Camille", "Chiara", "Dmitri", "Elif", "Emeka",
	"Esther", "Farid", "Freya", "Gabriel", "Hana", "Hugo", "Inès", "Ivan", "Jasper", "Jun",
	"Kaito", "Karin", "Lars", "Leila", "Lucia", "Mateo", "Mei", "Miriam", "Nadia", "Nikhil",
	"Noor", "Olga", "Oskar", "Priya", "Rafael", "Rosa", "Samuel", "Sanne", "Sofia", "Tariq",
	"Teodor", "Thandiwe", "Tomasz", "Ulla", "Valentina", "Wen", "Yara", "Yusuf", "Zoë", "Søren",
	"Agnès", "Björn", "Dalia", "Efua", "Hamid", "Ingrid", "José", "Kofi", "Linnea", "Matías",
}

var surnames = [...]string{
	"Abara", "Albrecht", "Andersen", "Baptiste", "Barros", "Bianchi", "Castellano", "Chen", "Dahl", "Dubois",
	"Eriksen", "Esposito", "Fischer", "Fonseca", "García", "Haddad", "Hartmann", "Holm", "Ibáñez", "Ivanova",
	"Jansen", "Kaur", "Kowalski", "Kuznetsov", "Laine", "Larsen", "Lindqvist", "Lopes", "Mäkinen", "Mansour",
	"Moreau", "Mwangi", "Nakamura", "Novak", "Nwosu", "Okafor", "Olsen", "Ortega", "Park", "Petrov",
	"Quintero", "Ramírez", "Rossi", "Sato", "Schmidt", "Silva", "Singh", "Sorensen", "Tanaka", "Tremblay",
	"Ueda", "Van Dijk", "Varga", "Vogel", "Wagner", "Watanabe", "Weber", "Yilmaz", "Zhang", "Ziegler",
	"Ahmed", "Bauer", "Costa", "Dimitrov", "Ekström", "Fernández", "Gallo", "Horvath", "Ito", "Jovanović",
	"Khan", "Lambert", "Marchetti", "Nielsen", "Oliveira", "Pereira", "Rahman", "Santos", "Takahashi", "O'Connell",
}

// Publisher names are a made-up place-like root and a form: 25 × 8 roots,
// each with one form, make the ~200 publishers.
var (
	publisherHeads = [...]string{
		"Ash", "Brack", "Call", "Dun", "Ever", "Fen", "Glen", "Hall", "Ives", "Kest",
		"Lark", "Merri", "North", "Oak", "Pen", "Quill", "Red", "Silver", "Thorn", "Umber",
		"Vale", "Whit", "Yarrow", "Alder", "Birch",
	}
	publisherTails = [...]string{"down", "ridge", "mere", "leigh", "wick", "holt", "bury", "ford"}
	publisherForms = [...]string{"Press", "Publishing", "University Press", "Scientific", "Academic Publishers"}
	publisherSlugs = [...]string{"press", "publishing", "university-press", "scientific", "academic"}
)

// numPublishers is the number of distinct publishers.
const numPublishers = len(publisherHeads) * len(publisherTails)

// Vendor names are an invented word and a form, e.g. "Vorix Digital".
var (
	vendorHeads = [...]string{
		"Qua", "Vor", "Tral", "Skel", "Brin", "Cass", "Dov", "Ezr", "Fal", "Grem",
		"Hox", "Ilv", "Jask", "Krel", "Mav", "Orv", "Plim", "Rax", "Sov", "Tav",
		"Ubr", "Vask", "Wex", "Yor", "Zan", "Lum", "Nev",
	}
	vendorTails = [...]string{"ara", "entis", "ora", "ium", "ex", "ova", "ant", "ix", "eon", "yx"}
	vendorForms = [...]string{
		"Digital", "Information Services", "Content Partners", "Knowledge Systems", "Online",
		"Data Services", "Learning", "Media Group", "Scholarly Services", "Library Network",
	}
	vendorRegions = [...]string{"Europe", "Americas", "Asia Pacific", "Africa", "Nordics", "Iberia", "Oceania", "Middle East"}
)

// packageQualifiers end package names.
var packageQualifiers = [...]string{
	"Collection", "Archive", "Backfile", "Premier", "Complete", "Select", "Essentials", "Core",
	"Plus", "Library", "Frontfile", "Legacy Collection", "Global Edition", "Academic Edition", "Reference Set", "Elite",
	"Expanded", "Current Titles", "Digital Archive", "Bundle", "Consortium Edition", "Research Library", "Source", "Suite",
	"Starter Set", "Comprehensive", "Spotlight", "Compact", "Deluxe", "Treasury",
}

// embargoes are the embargo_info values used on serials.
var embargoes = [...]string{"P1Y", "P6M", "P2Y", "P3M", "P18M", "R2Y", "R5Y", "R10Y;P30D", "P30D", "P12M"}
