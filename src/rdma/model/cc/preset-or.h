/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PRESET_OR_H
#define RDMA_PRESET_OR_H

#include "ns3/abort.h"
#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/object-base.h"

#include <optional>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup rdma
 * Attribute value of a controller parameter whose default is "the preset's value": either
 * `preset` (no value of its own: in Init the controller takes its preset's value for the
 * line rate) or a value of the wrapped attribute type V (TimeValue, DoubleValue,
 * UintegerValue, BooleanValue, DataRateValue), which wins over the preset.
 *
 * ns-3 attributes have no "unset" state, and such parameters have no spare value that
 * could stand for one (DCQCN: a byte counter or a decrease interval of 0 means "off",
 * a rate or a step count of 0 is legal, a bool has two values). So "the preset's" is a
 * state of its own, spelled `preset` in scenario files, config.json and the docs.
 *
 * The parameter still takes and gives V: SetAttribute("RateAi", DataRateValue(...)) sets
 * it, and GetAttribute("RateAi", dataRateValue) reads it once it has a value (after Init;
 * before, only a StringValue or a PresetOr<V> can read `preset`). As a string, a time is
 * written exactly, in whole microseconds when it is one ("55us", "0us"), else in
 * nanoseconds ("1500ns"), where TimeValue would round to six significant digits; other
 * types as V writes them.
 */
template <class V>
class PresetOr : public AttributeValue
{
  public:
    /// `preset`: the preset's value.
    PresetOr() = default;

    /// An explicit value.
    PresetOr(const V& value)
        : m_value(DynamicCast<V>(value.Copy()))
    {
    }

    /// \return whether this stands for the preset's value (no value of its own)
    bool IsPreset() const
    {
        return !m_value;
    }

    /// \return the explicit value (aborts if IsPreset())
    const V& GetValue() const
    {
        NS_ABORT_MSG_IF(IsPreset(), "PresetOr: no explicit value (preset)");
        return *m_value;
    }

    Ptr<AttributeValue> Copy() const override
    {
        return IsPreset() ? Create<PresetOr<V>>() : Create<PresetOr<V>>(*m_value);
    }

    std::string SerializeToString(Ptr<const AttributeChecker> checker) const override;
    bool DeserializeFromString(std::string value, Ptr<const AttributeChecker> checker) override;

  private:
    Ptr<V> m_value; ///< null: the preset's
};

/**
 * \ingroup rdma
 * Checker of a PresetOr<V> attribute: `preset`, or a V that \p inner accepts (the range
 * of the wrapped type). Accepts a plain V as well, so that V values can be set.
 */
template <class V>
class PresetOrChecker : public AttributeChecker
{
  public:
    /// \param inner the checker of the wrapped type (e.g. MakeTimeChecker(NanoSeconds(1)))
    explicit PresetOrChecker(Ptr<const AttributeChecker> inner)
        : m_inner(inner)
    {
    }

    /// \return the checker of the wrapped type
    Ptr<const AttributeChecker> GetInner() const
    {
        return m_inner;
    }

    bool Check(const AttributeValue& value) const override
    {
        if (const auto* p = dynamic_cast<const PresetOr<V>*>(&value))
        {
            return p->IsPreset() || m_inner->Check(p->GetValue());
        }
        return m_inner->Check(value);
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::PresetOr<" + m_inner->GetValueTypeName() + ">";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        const std::string inner = m_inner->HasUnderlyingTypeInformation()
                                      ? m_inner->GetUnderlyingTypeInformation()
                                      : m_inner->GetValueTypeName();
        return inner + " or preset";
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<PresetOr<V>>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        const auto* src = dynamic_cast<const PresetOr<V>*>(&source);
        auto* dst = dynamic_cast<PresetOr<V>*>(&destination);
        if (!src || !dst)
        {
            return false;
        }
        *dst = *src;
        return true;
    }

  private:
    Ptr<const AttributeChecker> m_inner;
};

/**
 * \ingroup rdma
 * Accessor of a PresetOr<V> attribute held in a member `std::optional<T>` of a parameter
 * block P (nullopt: the preset's) that its owner, class P::Owner, shares between equal
 * objects: the accessor reads the block through `const P& GetParams() const` and writes
 * it through `P& MutableParams()`, which gives the object a block of its own first if it
 * shares one. Sets from a PresetOr<V> or a V; gets into a PresetOr<V>, or into a V when
 * the member has a value.
 */
template <class V, class T, class P>
class PresetOrAccessor : public AttributeAccessor
{
  public:
    using C = typename P::Owner; ///< the class whose attribute it is

    /// \param member the member of the block that holds the parameter
    explicit PresetOrAccessor(std::optional<T> P::*member)
        : m_member(member)
    {
    }

    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        C* obj = dynamic_cast<C*>(object);
        if (!obj)
        {
            return false;
        }
        std::optional<T> wanted;
        if (const auto* p = dynamic_cast<const PresetOr<V>*>(&value))
        {
            if (!p->IsPreset())
            {
                wanted = static_cast<T>(p->GetValue().Get());
            }
        }
        else if (const auto* v = dynamic_cast<const V*>(&value))
        {
            wanted = static_cast<T>(v->Get());
        }
        else
        {
            return false;
        }
        if (!(obj->GetParams().*m_member == wanted))
        {
            obj->MutableParams().*m_member = wanted; // (an equal value keeps the block shared)
        }
        return true;
    }

    bool Get(const ObjectBase* object, AttributeValue& value) const override
    {
        const C* obj = dynamic_cast<const C*>(object);
        if (!obj)
        {
            return false;
        }
        const std::optional<T>& member = obj->GetParams().*m_member;
        if (auto* p = dynamic_cast<PresetOr<V>*>(&value))
        {
            *p = member ? PresetOr<V>(V(*member)) : PresetOr<V>();
            return true;
        }
        auto* v = dynamic_cast<V*>(&value);
        if (!v || !member)
        {
            return false;
        }
        v->Set(*member);
        return true;
    }

    bool HasGetter() const override
    {
        return true;
    }

    bool HasSetter() const override
    {
        return true;
    }

  private:
    std::optional<T> P::*m_member;
};

/**
 * \ingroup rdma
 * \param member the `std::optional<T>` member of a parameter block that holds a
 *        PresetOr<V> attribute (PresetOrAccessor)
 * \return its accessor, e.g. MakePresetOrAccessor<TimeValue>(&Dcqcn::Params::alphaInterval)
 */
template <class V, class T, class P>
Ptr<const AttributeAccessor>
MakePresetOrAccessor(std::optional<T> P::*member)
{
    return Ptr<const AttributeAccessor>(new PresetOrAccessor<V, T, P>(member), false);
}

/**
 * \ingroup rdma
 * \param inner the checker of the wrapped type
 * \return the checker of a PresetOr<V> attribute, e.g.
 *         MakePresetOrChecker<TimeValue>(MakeTimeChecker(NanoSeconds(1)))
 */
template <class V>
Ptr<const AttributeChecker>
MakePresetOrChecker(Ptr<const AttributeChecker> inner)
{
    return Ptr<const AttributeChecker>(new PresetOrChecker<V>(inner), false);
}

template <class V>
std::string
PresetOr<V>::SerializeToString(Ptr<const AttributeChecker> checker) const
{
    if (IsPreset())
    {
        return "preset";
    }
    if constexpr (std::is_same_v<V, TimeValue>)
    {
        const Time t = m_value->Get();
        if (t == MicroSeconds(t.GetMicroSeconds()))
        {
            return std::to_string(t.GetMicroSeconds()) + "us";
        }
        if (t == NanoSeconds(t.GetNanoSeconds()))
        {
            return std::to_string(t.GetNanoSeconds()) + "ns";
        }
    }
    const auto* c = dynamic_cast<const PresetOrChecker<V>*>(PeekPointer(checker));
    return m_value->SerializeToString(c ? c->GetInner() : checker);
}

template <class V>
bool
PresetOr<V>::DeserializeFromString(std::string value, Ptr<const AttributeChecker> checker)
{
    if (value == "preset")
    {
        m_value = nullptr;
        return true;
    }
    const auto* c = dynamic_cast<const PresetOrChecker<V>*>(PeekPointer(checker));
    Ptr<V> v = ns3::Create<V>();
    if (!v->DeserializeFromString(value, c ? c->GetInner() : checker))
    {
        return false;
    }
    m_value = v;
    return true;
}

} // namespace ns3

#endif /* RDMA_PRESET_OR_H */
