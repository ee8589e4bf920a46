package gen

import "github.com/kbserver/kbserver/internal/kb"

// appendName appends a title name fitting the publication type. It reports
// whether the title is an edited volume (its contributors are editors).
func (g *generator) appendName(r *rng, pt kb.ResourceType, ar *area, t1, t2 int) (edited bool) {
	T, T2 := ar.topics[t1], ar.topics[t2]
	adj := func() string { return adjectives[r.intn(len(adjectives))] }
	asp := func() string { return aspects[r.intn(len(aspects))] }
	place := func() string { return places[r.intn(len(places))] }
	sub := func() string { return subtitles[r.intn(len(subtitles))] }
	switch pt {
	case kb.ResourceJournal:
		switch r.intn(12) {
		case 0:
			g.str("Journal of ")
			g.str(T)
			g.buf = append(g.buf, ' ')
			g.str(asp())
		case 1:
			g.str("Annals of ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
		case 2:
			g.str(adj())
			g.str(" Review of ")
			g.str(T)
		case 3:
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Quarterly")
		case 4:
			g.str("International Journal of ")
			g.str(T)
			g.str(" and ")
			g.str(T2)
		case 5:
			g.str(adj())
			g.str(" Journal of ")
			g.str(T)
		case 6:
			g.str("Transactions of the ")
			g.str(place())
			g.str(" Society for ")
			g.str(T)
		case 7:
			g.str(T)
			g.buf = append(g.buf, ' ')
			g.str(asp())
		case 8:
			g.str("Archives of ")
			g.str(T)
			g.str(" and ")
			g.str(T2)
		case 9:
			g.str("Current ")
			g.str(asp())
			g.str(" in ")
			g.str(T)
		case 10:
			g.str(place())
			g.str(" Journal of ")
			g.str(T)
		default:
			g.str(T)
			g.str(": ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(asp())
		}
		if r.permille(100) {
			g.str(", Section ")
			g.buf = append(g.buf, byte('A'+r.intn(4)))
		}
	case kb.ResourceNewsletter:
		switch r.intn(3) {
		case 0:
			g.str(T)
			g.str(" Newsletter")
		case 1:
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Newsletter")
		default:
			g.str("News from the ")
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Society")
		}
	case kb.ResourceReport:
		switch r.intn(4) {
		case 0:
			g.str(place())
			g.str(" Report on ")
			g.str(T)
		case 1:
			g.str("Annual Survey of ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
		case 2:
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Working Papers")
		default:
			g.str("Technical Reports in ")
			g.str(T)
			g.buf = append(g.buf, ' ')
			g.str(asp())
		}
	case kb.ResourceProceedings:
		g.str("Proceedings of the ")
		g.str(place())
		g.buf = append(g.buf, ' ')
		g.str(meetings[r.intn(len(meetings))])
		g.str(" on ")
		g.str(T)
		if r.permille(400) {
			g.str(" and ")
			g.str(T2)
		}
	case kb.ResourceNewspaper:
		g.str("The ")
		g.str(place())
		g.buf = append(g.buf, ' ')
		g.str(newspaperWords[r.intn(len(newspaperWords))])
	case kb.ResourceBookSeries:
		switch r.intn(6) {
		case 0:
			g.str("Studies in ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
		case 1:
			g.str("Lecture Notes in ")
			g.str(T)
			g.buf = append(g.buf, ' ')
			g.str(asp())
		case 2:
			g.str(place())
			g.str(" Series in ")
			g.str(T)
		case 3:
			g.str("Advances in ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
		case 4:
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Monographs")
		default:
			g.str("Contributions to ")
			g.str(T)
			g.str(" and ")
			g.str(T2)
		}
	case kb.ResourceThesisDissertation:
		switch r.intn(3) {
		case 0:
			g.str(T)
			g.str(" in ")
			g.str(place())
			g.str(": ")
			g.str(sub())
		case 1:
			g.str("Towards a Theory of ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
		default:
			g.str("Aspects of ")
			g.str(T)
			g.str(" and ")
			g.str(T2)
			g.str(": Evidence from ")
			g.str(place())
		}
	case kb.ResourceDatabase:
		switch r.intn(4) {
		case 0:
			g.str(T)
			g.str(" Index")
		case 1:
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Abstracts")
		case 2:
			g.str(T)
			g.str(" Source ")
			g.str(asp())
		default:
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Database")
		}
	case kb.ResourceWebsite:
		switch r.intn(4) {
		case 0:
			g.str(T)
			g.str(" Online")
		case 1:
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Portal")
		case 2:
			g.str("The ")
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Hub")
		default:
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Web Archive")
		}
	case kb.ResourceStreamingAudio:
		switch r.intn(4) {
		case 0:
			g.str(T)
			g.str(" Lectures in Audio")
		case 1:
			g.str("Voices of ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
		case 2:
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Sound Archive")
		default:
			g.str(T)
			g.str(" Podcast Collection")
		}
	case kb.ResourceStreamingVideo:
		switch r.intn(4) {
		case 0:
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Video Collection")
		case 1:
			g.str("Exploring ")
			g.str(T)
			g.str(": ")
			g.str(sub())
		case 2:
			g.str(T)
			g.str(" on Film")
		default:
			g.str(place())
			g.buf = append(g.buf, ' ')
			g.str(T)
			g.str(" Documentaries")
		}
	default: // books, audiobooks, unspecified
		switch r.intn(12) {
		case 0:
			g.str("Introduction to ")
			g.str(T)
			g.str(": ")
			g.str(sub())
		case 1:
			g.str("The ")
			g.str(place())
			g.str(" Handbook of ")
			g.str(T)
			edited = true
		case 2:
			g.str("Principles of ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
		case 3:
			g.str(T)
			g.str(": ")
			g.str(sub())
		case 4:
			g.str("Essays on ")
			g.str(T)
			g.str(" and ")
			g.str(T2)
			edited = true
		case 5:
			g.str(T)
			g.str(" in ")
			g.str(place())
			g.str(": ")
			g.str(sub())
		case 6:
			g.str("The ")
			g.str(adj())
			g.str(" Guide to ")
			g.str(T)
		case 7:
			g.str(adj())
			g.str(" Perspectives on ")
			g.str(T)
		case 8:
			g.str("A History of ")
			g.str(T)
			g.str(" in ")
			g.str(place())
		case 9:
			g.str("Understanding ")
			g.str(T)
			g.str(": ")
			g.str(sub())
		case 10:
			g.str(T)
			g.str(" and ")
			g.str(T2)
			g.str(": ")
			g.str(sub())
		default:
			g.str("Encyclopedia of ")
			g.str(adj())
			g.buf = append(g.buf, ' ')
			g.str(T)
			edited = true
		}
	}
	return edited
}

// appendDescription appends a one-sentence description.
func (g *generator) appendDescription(r *rng, fam family, ar *area, t1, t2 int) {
	T, T2 := ar.topics[t1], ar.topics[t2]
	switch fam {
	case famSerial:
		switch r.intn(3) {
		case 0:
			g.str("A forum for research and debate in ")
			g.str(T)
			g.str(" and ")
			g.str(T2)
			g.buf = append(g.buf, '.')
		case 1:
			g.str("Publishes original articles, reviews and short communications on ")
			g.str(T)
			g.str(", with particular attention to ")
			g.str(T2)
			g.buf = append(g.buf, '.')
		default:
			g.str("Covers current work in ")
			g.str(ar.name)
			g.str(", from ")
			g.str(T)
			g.str(" to ")
			g.str(T2)
			g.buf = append(g.buf, '.')
		}
	case famMono:
		switch r.intn(3) {
		case 0:
			g.str("An accessible account of ")
			g.str(T)
			g.str(", drawing on recent work in ")
			g.str(T2)
			g.buf = append(g.buf, '.')
		case 1:
			g.str("This volume brings together new research on ")
			g.str(T)
			g.str(" for students and researchers in ")
			g.str(ar.name)
			g.buf = append(g.buf, '.')
		default:
			g.str("A comprehensive survey of ")
			g.str(T)
			g.str(", its methods and its debates.")
		}
	default:
		g.str("Online resources for teaching and research in ")
		g.str(T)
		g.str(" and ")
		g.str(T2)
		g.buf = append(g.buf, '.')
	}
}
