import type { WidgetType } from '../../schemas/generated/types';
import type { WidgetComponent } from '../../widgets/widget-props';
import { Button } from '../../widgets/button';
import { Checklist } from '../../widgets/checklist';
import { Choice } from '../../widgets/choice';
import { Confirmation } from '../../widgets/confirmation';
import { EmptyState } from '../../widgets/empty-state';
import { Input } from '../../widgets/input';
import { ItemList } from '../../widgets/item-list';
import { LanguageChooser } from '../../widgets/language-chooser';
import { MapPin } from '../../widgets/map-pin';
import { MultiChoice } from '../../widgets/multi-choice';
import { PlaceSearch } from '../../widgets/place-search';
import { Popup } from '../../widgets/popup';
import { Redirect } from '../../widgets/redirect';
import { SocialLoginButtons } from '../../widgets/social-login-buttons';
import { Text } from '../../widgets/text';
import { lazyWidget } from './lazy-widget';

/**
 * The one map from `widget_type` to its component (CONVENTIONS: the registry is one typed map). Typed
 * with `satisfies Record<WidgetType, WidgetComponent>`, so a widget type added to
 * schemas/widget-type.schema.json without a component here fails to compile. The engine looks a type up
 * here and knows no widget by name; an unknown type draws the engine's quiet fallback.
 */
export const widgetRegistry = {
  text: Text,
  input: Input,
  button: Button,
  confirmation: Confirmation,
  popup: Popup,
  empty_state: EmptyState,
  language_chooser: LanguageChooser,
  redirect: Redirect,
  checklist: Checklist,
  choice: Choice,
  multi_choice: MultiChoice,
  item_list: ItemList,
  map_pin: MapPin,
  place_search: PlaceSearch,
  social_login_buttons: SocialLoginButtons,
  // Only the images screen draws these: their code is a chunk of its own, fetched when first drawn.
  image_uploader: lazyWidget(() => import('../../widgets/image-uploader').then((m) => m.ImageUploader)),
  photo_tips: lazyWidget(() => import('../../widgets/photo-tips').then((m) => m.PhotoTips)),
  // Only the KYC screen draws these.
  contact_verification: lazyWidget(() =>
    import('../../widgets/contact-verification').then((m) => m.ContactVerification),
  ),
  document_uploader: lazyWidget(() =>
    import('../../widgets/document-uploader').then((m) => m.DocumentUploader),
  ),
  // Only the review screen draws the gallery, the dashboard the property cards, the referral screen its header.
  photo_gallery: lazyWidget(() => import('../../widgets/photo-gallery').then((m) => m.PhotoGallery)),
  property_card: lazyWidget(() => import('../../widgets/property-card').then((m) => m.PropertyCard)),
  referral_header: lazyWidget(() => import('../../widgets/referral-header').then((m) => m.ReferralHeader)),
} satisfies Record<WidgetType, WidgetComponent>;
